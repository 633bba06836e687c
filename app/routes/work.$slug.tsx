import { formatDateRange } from "../../catalogue/dates.ts";
import { catalogue, forPage, notFound } from "../catalogue.server.ts";
import { ExternalLinks, storeLinks } from "../components/ExternalLinks.tsx";
import { Page } from "../components/Page.tsx";
import { ProjectHeader } from "../components/ProjectList.tsx";
import { ListSection, TechSection } from "../components/Section.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/work.$slug";

export const handle = pageHandle("work", { item: (data: Route.ComponentProps["loaderData"]) => data.job.name });

export function loader({ params }: Route.LoaderArgs) {
  return { job: forPage(catalogue.work.find((job) => job.slug === params.slug) ?? notFound()) };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, {
        title: loaderData.job.name,
        description: `${loaderData.job.position} at ${loaderData.job.name}, ${formatDateRange(loaderData.job.startDate, loaderData.job.endDate)}.`,
      })
    : [];

export default function JobDetail({ loaderData: { job } }: Route.ComponentProps) {
  return (
    <Page className="page detail" as="article">
      <ProjectHeader project={job} lede={job.position} where={job.location} />
      <div className="prose" dangerouslySetInnerHTML={{ __html: job.html }} />
      <ListSection id="accomplishments" title="Accomplishments" items={job.accomplishments}>
        {(accomplishment) => <li key={accomplishment}>{accomplishment}</li>}
      </ListSection>
      <TechSection tech={job.tech} />
      <ExternalLinks label="Links" links={storeLinks(job)} />
    </Page>
  );
}
