import { formatMonthYear } from "../../catalogue/dates.ts";
import { cardPath } from "../../outputs/card.ts";
import { blogPostingLd } from "../../outputs/structured-data.ts";
import { catalogue, forPage, notFound } from "../catalogue.server.ts";
import { Page } from "../components/Page.tsx";
import { SignupBox } from "../components/SignupBox.tsx";
import { pageMeta, siteOf } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { SITE_URL } from "../lib/site-url.ts";
import type { Route } from "./+types/updates.$slug";

export const handle = pageHandle("updates", {
  item: (data: Route.ComponentProps["loaderData"]) => data.issue.title,
  hydrate: true,
});

export function loader({ params }: Route.LoaderArgs) {
  return {
    issue: forPage(catalogue.updates.find((issue) => issue.slug === params.slug) ?? notFound()),
    author: catalogue.site.name,
  };
}

export { formHeaders as headers, signupAction as action } from "../lib/form-actions.server.ts";
export { signupClientAction as clientAction } from "../lib/form-client.ts";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { issue } = loaderData;
  return pageMeta(matches, {
    title: issue.title,
    description: issue.excerpt,
    type: "article",
    published: issue.date,
    structuredData: [
      blogPostingLd(
        { name: issue.title, date: issue.date, path: issue.path, wordCount: issue.wordCount, time: 0, tags: [] },
        { owner: siteOf(matches).name, siteUrl: SITE_URL, image: cardPath(issue.path), description: issue.excerpt },
      ),
    ],
  });
};

export default function UpdateIssuePage({ loaderData: { issue, author } }: Route.ComponentProps) {
  return (
    <Page className="page detail writing" as="article">
      <header className="writing-header">
        <div>
          <h1>{issue.title}</h1>
          <p className="meta-line">
            {author} · <time dateTime={issue.date}>{formatMonthYear(issue.date)}</time>
          </p>
        </div>
      </header>
      <div className="prose" dangerouslySetInnerHTML={{ __html: issue.html }} />
      <SignupBox />
    </Page>
  );
}
