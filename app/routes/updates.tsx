import { formatMonthYear } from "../../catalogue/dates.ts";
import { FEEDS } from "../../outputs/linked-files.ts";
import { catalogue } from "../catalogue.server.ts";
import { FollowForm } from "../components/FollowForm.tsx";
import { Page } from "../components/Page.tsx";
import { PageLink } from "../components/PageLink.tsx";
import { Section } from "../components/Section.tsx";
import { SignupBox } from "../components/SignupBox.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/updates";

export const handle = pageHandle("updates", { hydrate: true });

export function loader() {
  return {
    issues: catalogue.updates.map(({ slug, path, title, date, excerpt }) => ({ slug, path, title, date, excerpt })),
  };
}

export { formHeaders as headers, signupAction as action } from "../lib/form-actions.server.ts";
export { signupClientAction as clientAction } from "../lib/form-client.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Updates" });

export default function Updates({ loaderData: { issues }, matches }: Route.ComponentProps) {
  return (
    <Page className="page narrow" title="Updates" intro="updates">
      <p className="signup-known">
        You signed up from this browser: once you confirm from the mail we sent, updates will reach your inbox. Thank
        you!
      </p>
      <SignupBox />
      <FollowForm address={matches[0].loaderData.site.fediverse} />
      {issues.length > 0 && (
        <Section id="issues-heading" title="Past issues">
          <ul className="writing-list h-feed">
            {issues.map((issue) => (
              <li key={issue.slug} className="writing-entry h-entry">
                <div>
                  <h3 className="writing-title">
                    <PageLink to={issue.path} className="p-name u-url">
                      {issue.title}
                    </PageLink>
                  </h3>
                  <p className="meta-line">
                    <time className="dt-published" dateTime={issue.date}>
                      {formatMonthYear(issue.date)}
                    </time>
                  </p>
                  {issue.excerpt && <p>{issue.excerpt}</p>}
                </div>
              </li>
            ))}
          </ul>
          <p>
            <a href={FEEDS.updates.path}>{FEEDS.updates.title} feed</a>
          </p>
        </Section>
      )}
    </Page>
  );
}
