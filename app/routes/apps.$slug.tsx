import { formatDateRange } from "../../catalogue/dates.ts";
import { catalogue, forPage, notFound } from "../catalogue.server.ts";
import { Breadcrumb } from "../components/Breadcrumb.tsx";
import { ExternalLinks } from "../components/ExternalLinks.tsx";
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

/** Everything about one app: logo 200 wide, screenshots 200x432, dates, links, tech and team. */
export default function AppDetail({ loaderData: { app } }: Route.ComponentProps) {
  return (
    <article className="page detail">
      <Breadcrumb />
      <header className="detail-header">
        <img src={app.logo} alt={`${app.name} logo`} width={200} height={200} />
        <div>
          <h1>{app.name}</h1>
          <p className="lede">{app.tagLine}</p>
          <p className="meta-line">
            {app.position} · {formatDateRange(app.startDate, app.endDate)}
          </p>
        </div>
      </header>
      <ExternalLinks
        label="Get the app"
        links={[
          { label: "Website", url: app.url },
          { label: "iOS App Store", url: app.iOSUrl },
          { label: "Google Play", url: app.androidUrl },
        ]}
      />
      {/* Rendered at build time from the owner's Markdown: *asterisks* become emphasis. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: app.html }} />
      {app.screenshots.length > 0 && (
        <section aria-labelledby="screenshots">
          <h2 id="screenshots">Screenshots</h2>
          <ul className="screenshots">
            {app.screenshots.map((screenshot, index) => (
              <li key={screenshot}>
                <img
                  src={screenshot}
                  alt={`${app.name} screenshot ${index + 1}`}
                  width={200}
                  height={432}
                  loading="lazy"
                />
              </li>
            ))}
          </ul>
        </section>
      )}
      {app.tech.length > 0 && (
        <section aria-labelledby="tech">
          <h2 id="tech">Tech</h2>
          <ul className="chips">
            {app.tech.map((tech) => (
              <li key={tech}>{tech}</li>
            ))}
          </ul>
        </section>
      )}
      {app.team.length > 0 && (
        <section aria-labelledby="team">
          <h2 id="team">Team</h2>
          <ul className="team">
            {app.team.map((member) => (
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
            ))}
          </ul>
        </section>
      )}
      {app.future && (
        <section aria-labelledby="future">
          <h2 id="future">Future</h2>
          <p>{app.future}</p>
        </section>
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
    </article>
  );
}
