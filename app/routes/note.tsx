import { formatMonthYear } from "../../catalogue/dates";
import { catalogue, notFound } from "../catalogue.server";
import { Breadcrumb } from "../components/Breadcrumb";
import { Embed } from "../components/Embed";
import { LinkIcons } from "../components/LinkIcons";
import { Tags } from "../components/Tags";
import { pageMeta, summarize } from "../lib/meta";
import type { Route } from "./+types/note";

export function loader({ params }: Route.LoaderArgs) {
  return { note: catalogue.books.find((note) => note.slug === params.slug) ?? notFound() };
}

export const meta: Route.MetaFunction = ({ data, matches }) =>
  data
    ? pageMeta(matches, {
        title: data.note.name,
        description: data.note.html
          ? summarize(data.note.html)
          : `Notes on ${data.note.name} by ${data.note.author}, rated ${data.note.rating} out of 10.`,
      })
    : [];

/** R8: one book note. */
export default function NoteDetail({ loaderData: { note } }: Route.ComponentProps) {
  return (
    <article className="page detail note">
      <Breadcrumb section={{ label: "Notes", to: "/notes" }} item={note.name} />
      <header className="note-header">
        <img src={note.photo} alt={`Cover of ${note.name}`} width={129} height={190} />
        <div>
          <h1>{note.name}</h1>
          <p className="lede">by {note.author}</p>
          <dl className="facts">
            <dt>Read</dt>
            <dd>
              <time dateTime={note.date}>{formatMonthYear(note.date)}</time>
            </dd>
            <dt>Rating</dt>
            <dd>{note.rating.toFixed(1)} / 10</dd>
            {note.time > 0 && (
              <>
                <dt>Read time</dt>
                <dd>{note.time} min read</dd>
              </>
            )}
          </dl>
          <Tags tags={note.tags} />
          <LinkIcons item={note} />
        </div>
      </header>
      {note.html ? (
        <section aria-labelledby="review">
          <h2 id="review">Review</h2>
          <div className="prose" dangerouslySetInnerHTML={{ __html: note.html }} />
        </section>
      ) : null}
      {note.podcastEmbed && (
        <section aria-labelledby="podcast">
          <h2 id="podcast">Podcast episode</h2>
          <Embed kind="podcast" src={note.podcastEmbed} title={`Podcast episode: ${note.name}`} />
        </section>
      )}
      {note.youtubeEmbed && (
        <section aria-labelledby="video">
          <h2 id="video">Video</h2>
          <Embed kind="video" src={note.youtubeEmbed} title={`Video: ${note.name}`} />
        </section>
      )}
    </article>
  );
}
