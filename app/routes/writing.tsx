import { formatMonthYear } from "../../catalogue/dates";
import { catalogue, notFound } from "../catalogue.server";
import { Breadcrumb } from "../components/Breadcrumb";
import { LinkIcons } from "../components/LinkIcons";
import { pageMeta, summarize } from "../lib/meta";
import type { Route } from "./+types/writing";

export function loader({ params }: Route.LoaderArgs) {
  return {
    writing: catalogue.writings.find((writing) => writing.slug === params.slug) ?? notFound(),
    author: catalogue.site.name,
  };
}

export const meta: Route.MetaFunction = ({ data, matches }) =>
  data ? pageMeta(matches, { title: data.writing.name, description: summarize(data.writing.html) }) : [];

/** R9: one essay with its metadata and links. */
export default function WritingDetail({ loaderData: { writing, author } }: Route.ComponentProps) {
  return (
    <article className="page detail writing">
      <Breadcrumb section={{ label: "Write", to: "/write" }} item={writing.name} />
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
    </article>
  );
}
