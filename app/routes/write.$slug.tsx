import { formatMonthYear } from "../../catalogue/dates.ts";
import { cardPath } from "../../outputs/card.ts";
import { blogPostingLd } from "../../outputs/structured-data.ts";
import { catalogue, forPage, notFound } from "../catalogue.server.ts";
import { LinkIcons } from "../components/LinkIcons.tsx";
import { Page } from "../components/Page.tsx";
import { ReplyForm } from "../components/ReplyForm.tsx";
import { formHeaders, replyAction } from "../lib/form-actions.server.ts";
import { pageMeta, siteOf } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { SITE_URL } from "../lib/site-url.ts";
import type { Route } from "./+types/write.$slug";

export const handle = pageHandle("write", { item: (data: Route.ComponentProps["loaderData"]) => data.writing.name });

export const action = replyAction("/write");
export const headers = formHeaders;

export function loader({ params }: Route.LoaderArgs) {
  return {
    writing: forPage(catalogue.writings.find((writing) => writing.slug === params.slug) ?? notFound()),
    author: catalogue.site.name,
  };
}

/** The essay shares its generated card; search engines get a BlogPosting. */
export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { writing } = loaderData;
  const description = writing.excerpt;
  return pageMeta(matches, {
    title: writing.name,
    description,
    type: "article",
    published: writing.date,
    structuredData: [
      blogPostingLd(writing, {
        owner: siteOf(matches).name,
        siteUrl: SITE_URL,
        image: cardPath(writing.path),
        description,
      }),
    ],
  });
};

export default function WritingDetail({ loaderData: { writing, author } }: Route.ComponentProps) {
  return (
    <Page className="page detail writing" as="article">
      <header className="writing-header">
        {writing.photo && <img src={writing.photo} alt="" width={100} height={100} />}
        <div>
          <h1>{writing.name}</h1>
          <p className="meta-line">
            {author} · <time dateTime={writing.date}>{formatMonthYear(writing.date)}</time> · {writing.time} min read
          </p>
          <LinkIcons item={writing} />
        </div>
      </header>
      <div className="prose" dangerouslySetInnerHTML={{ __html: writing.html }} />
      <ReplyForm />
    </Page>
  );
}
