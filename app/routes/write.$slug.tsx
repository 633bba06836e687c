import { formatMonthYear } from "../../catalogue/dates.ts";
import { cardPath } from "../../outputs/card.ts";
import { blogPostingLd } from "../../outputs/structured-data.ts";
import { catalogue, forPage, notFound } from "../catalogue.server.ts";
import { FollowForm } from "../components/FollowForm.tsx";
import { LinkIcons } from "../components/LinkIcons.tsx";
import { Page } from "../components/Page.tsx";
import { Replies } from "../components/Replies.tsx";
import { ReplyForm } from "../components/ReplyForm.tsx";
import { formHeaders, replyAction } from "../lib/form-actions.server.ts";
import { pageMeta, siteOf } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { repliesShown } from "../lib/replies.server.ts";
import { SITE_URL } from "../lib/site-url.ts";
import type { Route } from "./+types/write.$slug";

export const handle = pageHandle("write", { item: (data: Route.ComponentProps["loaderData"]) => data.writing.name });

export const action = replyAction("/write");
export const headers = formHeaders;

export async function loader({ params, context }: Route.LoaderArgs) {
  const writing = catalogue.writings.find((candidate) => candidate.slug === params.slug) ?? notFound();
  return { writing: forPage(writing), author: catalogue.site.name, replies: await repliesShown(context, writing.path) };
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

export default function WritingDetail({ loaderData: { writing, author, replies }, matches }: Route.ComponentProps) {
  const url = new URL(writing.path, SITE_URL).href;
  return (
    <Page className="page detail writing h-entry" as="article">
      <header className="writing-header">
        {writing.photo && <img className="u-photo" src={writing.photo} alt="" width={100} height={100} />}
        <div>
          <h1 className="p-name">{writing.name}</h1>
          <p className="meta-line">
            <a className="p-author h-card" href="/">
              {author}
            </a>{" "}
            ·{" "}
            <a className="u-url" href={url}>
              <time className="dt-published" dateTime={writing.date}>
                {formatMonthYear(writing.date)}
              </time>
            </a>{" "}
            · {writing.time} min read
          </p>
          <LinkIcons item={writing} />
        </div>
      </header>
      <div className="prose e-content" dangerouslySetInnerHTML={{ __html: writing.html }} />
      <Replies replies={replies} postUrl={url} />
      <ReplyForm />
      <FollowForm address={matches[0].loaderData.site.fediverse} />
    </Page>
  );
}
