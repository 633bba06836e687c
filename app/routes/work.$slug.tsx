import { formatDateRange } from "../../catalogue/dates.ts";
import { catalogue, forPage, notFound } from "../catalogue.server.ts";
import { Breadcrumb } from "../components/Breadcrumb.tsx";
import { ExternalLinks } from "../components/ExternalLinks.tsx";
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
    <article className="page detail">
      <Breadcrumb />
      <header className="detail-header">
        <img src={job.logo} alt={`${job.name} logo`} width={200} height={200} />
        <div>
          <h1>{job.name}</h1>
          <p className="lede">{job.position}</p>
          <p className="meta-line">
            {job.location} · {formatDateRange(job.startDate, job.endDate)}
          </p>
        </div>
      </header>
      <div className="prose" dangerouslySetInnerHTML={{ __html: job.html }} />
      {job.accomplishments.length > 0 && (
        <section aria-labelledby="accomplishments">
          <h2 id="accomplishments">Accomplishments</h2>
          <ul>
            {job.accomplishments.map((accomplishment) => (
              <li key={accomplishment}>{accomplishment}</li>
            ))}
          </ul>
        </section>
      )}
      {job.tech.length > 0 && (
        <section aria-labelledby="tech">
          <h2 id="tech">Tech</h2>
          <ul className="chips">
            {job.tech.map((tech) => (
              <li key={tech}>{tech}</li>
            ))}
          </ul>
        </section>
      )}
      <ExternalLinks
        label="Links"
        links={[
          { label: "Website", url: job.url },
          { label: "iOS App Store", url: job.iOSUrl },
          { label: "Google Play", url: job.androidUrl },
        ]}
      />
    </article>
  );
}
