import type { ReactNode } from "react";
import { isGeneratedCover } from "../../catalogue/cover-path.ts";
import { formatMonthYear } from "../../catalogue/dates.ts";
import { seriesText } from "../../catalogue/series.ts";
import { ratingText, SHELF_LABELS } from "../../catalogue/shelves.ts";
import { formatDuration } from "../../catalogue/stats.ts";
import { fillTemplate } from "../../catalogue/template.ts";
import { COVER_IMAGE_SCALE, noteImagePath } from "../../outputs/card.ts";
import { COVER_HEIGHT, COVER_WIDTH, coverSvg } from "../../outputs/cover.ts";
import { bookReviewLd } from "../../outputs/structured-data.ts";
import { catalogue, forPage, notesBySlug, notFound } from "../catalogue.server.ts";
import { DATE_LABELS } from "../components/BookShelf.tsx";
import { DrawnCover } from "../components/DrawnCover.tsx";
import { PlayerSection } from "../components/Embed.tsx";
import { FollowForm } from "../components/FollowForm.tsx";
import { LinkIcons } from "../components/LinkIcons.tsx";
import { Page } from "../components/Page.tsx";
import { PageLink } from "../components/PageLink.tsx";
import { MentionedIn, ReadingHistory } from "../components/ReadingHistory.tsx";
import { RelatedNotes } from "../components/RelatedNotes.tsx";
import { Replies } from "../components/Replies.tsx";
import { ReplyForm } from "../components/ReplyForm.tsx";
import { Section } from "../components/Section.tsx";
import { Tags } from "../components/Tags.tsx";
import { formHeaders, replyAction } from "../lib/form-actions.server.ts";
import { pageMeta, siteOf } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { repliesShown } from "../lib/replies.server.ts";
import { SITE_URL } from "../lib/site-url.ts";
import { type BookLink, noteNeighbours } from "../reading.server.ts";
import type { Route } from "./+types/notes.$slug";

export const handle = pageHandle("notes", { item: (data: Route.ComponentProps["loaderData"]) => data.note.name });

export const action = replyAction("/notes");
export const headers = formHeaders;

export async function loader({ params, context }: Route.LoaderArgs) {
  const note = notesBySlug.get(params.slug) ?? notFound();
  // Without a review, the owner's sentence from site.yaml describes the note to search engines.
  const { noteDescription, shelfNoteDescription } = catalogue.site.sections.notes;
  const description =
    note.excerpt ||
    (note.rating === null
      ? fillTemplate(shelfNoteDescription, { title: note.name, author: note.author, shelf: SHELF_LABELS[note.shelf] })
      : fillTemplate(noteDescription, { title: note.name, author: note.author, rating: String(note.rating) }));
  // Drawn covers go in the page: as <img> files, each SVG cost the browser a document of its own.
  const drawn = (book: BookLink, label: string) =>
    isGeneratedCover(book) ? coverSvg(book.name, book.author, label) : null;
  const neighbours = noteNeighbours(note);
  const related = neighbours.related.map((book) => ({ ...book, drawnCover: drawn(book, "") }));
  return {
    note: forPage(note),
    cover: drawn(note, `Cover of ${note.name}`),
    neighbours: { ...neighbours, related },
    description,
    replies: await repliesShown(context, note.path),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { note } = loaderData;
  const image = noteImagePath(note);
  // A generated cover's PNG copy has a known size; an owner's photo may have any.
  const generated = isGeneratedCover(note);
  return pageMeta(matches, {
    title: note.name,
    description: loaderData.description,
    type: "article",
    published: note.date,
    image: {
      path: image,
      alt: `Cover of ${note.name}`,
      ...(generated && { width: COVER_WIDTH * COVER_IMAGE_SCALE, height: COVER_HEIGHT * COVER_IMAGE_SCALE }),
    },
    structuredData: [bookReviewLd(note, { owner: siteOf(matches).name, siteUrl: SITE_URL, image })],
  });
};

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

export default function NoteDetail({
  loaderData: { note, cover, neighbours, replies },
  matches,
}: Route.ComponentProps) {
  const url = new URL(note.path, SITE_URL).href;
  return (
    <Page className="page detail note h-entry" as="article">
      <header className="note-header">
        <DrawnCover svg={cover}>
          <img src={note.photo} alt={`Cover of ${note.name}`} width={129} height={190} />
        </DrawnCover>
        <div>
          <h1 className="p-name">{note.name}</h1>
          <p className="lede">by {note.author}</p>
          <dl className="facts">
            {note.shelf !== "read" && (
              <Fact term="Shelf">
                <PageLink to="/notes/shelves">{SHELF_LABELS[note.shelf]}</PageLink>
              </Fact>
            )}
            {note.series && <Fact term="Series">{seriesText(note.series)}</Fact>}
            <Fact term={DATE_LABELS[note.shelf]}>
              <a className="u-url" href={url}>
                <time className="dt-published" dateTime={note.date}>
                  {formatMonthYear(note.date)}
                </time>
              </a>
            </Fact>
            {note.rating !== null && <Fact term="Rating">{ratingText(note.rating)}</Fact>}
            {note.time > 0 && <Fact term="Read time">{formatDuration(note.time)}</Fact>}
          </dl>
          <Tags tags={note.tags} />
          <LinkIcons item={note} labelled />
        </div>
      </header>
      <ReadingHistory readings={note.readings} current={note.slug} />
      {/* A body of quotes alone is no review. */}
      {note.html && (
        <Section id="review" title={note.reviewed ? "Review" : "Quotes"}>
          <div className="prose e-content" dangerouslySetInnerHTML={{ __html: note.html }} />
        </Section>
      )}
      <PlayerSection kind="podcast" src={note.podcastEmbed} name={note.name} />
      <PlayerSection kind="video" src={note.youtubeEmbed} name={note.name} />
      <MentionedIn mentions={note.mentionedIn} />
      <Replies replies={replies} postUrl={url} />
      <ReplyForm />
      <FollowForm address={matches[0].loaderData.site.fediverse} />
      <RelatedNotes {...neighbours} />
    </Page>
  );
}
