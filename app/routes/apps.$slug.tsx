import { catalogue, forPage, notFound } from "../catalogue.server.ts";
import { ExternalLinks, storeLinks } from "../components/ExternalLinks.tsx";
import { Page } from "../components/Page.tsx";
import { ProjectHeader } from "../components/ProjectList.tsx";
import { ListSection, Section, TechSection } from "../components/Section.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/apps.$slug";

export const handle = pageHandle("apps", { item: (data: Route.ComponentProps["loaderData"]) => data.app.name });

export function loader({ params }: Route.LoaderArgs) {
  return { app: forPage(catalogue.apps.find((app) => app.slug === params.slug) ?? notFound()) };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, {
        title: loaderData.app.name,
        description: `${loaderData.app.name}: ${loaderData.app.tagLine}`,
      })
    : [];

export default function AppDetail({ loaderData: { app } }: Route.ComponentProps) {
  return (
    <Page className="page detail" as="article">
      <ProjectHeader project={app} lede={app.tagLine} where={app.position} />
      <ExternalLinks label="Get the app" links={storeLinks(app)} />
      {/* Rendered at build time from the owner's Markdown: *asterisks* become emphasis. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: app.html }} />
      <ListSection id="screenshots" title="Screenshots" className="screenshots" items={app.screenshots}>
        {(screenshot, index) => (
          <li key={screenshot}>
            <img src={screenshot} alt={`${app.name} screenshot ${index + 1}`} width={200} height={432} loading="lazy" />
          </li>
        )}
      </ListSection>
      <TechSection tech={app.tech} />
      <ListSection id="team" title="Team" className="team" items={app.team}>
        {(member) => (
          <li key={member.name}>
            {member.url ? (
              <a href={member.url} rel="noopener">
                {member.name}
              </a>
            ) : (
              member.name
            )}{" "}
            — {member.role}
          </li>
        )}
      </ListSection>
      {app.future && (
        <Section id="future" title="Future">
          <p>{app.future}</p>
        </Section>
      )}
      <ExternalLinks
        label="Follow the app"
        links={[
          { label: "LinkedIn", url: app.linkedInLink },
          { label: "Facebook", url: app.facebookLink },
          { label: "Twitter", url: app.twitterLink },
          { label: "Instagram", url: app.instagramLink },
          { label: "YouTube", url: app.youtubeLink },
          { label: "Product Hunt", url: app.productHuntLink },
        ]}
      />
    </Page>
  );
}
