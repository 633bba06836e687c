/**
 * The catalogue as the server-side loaders see it. The content files come with the build, in a file
 * beside the server bundle (reloaded on change in development: catalogue/vite-plugin.ts), so
 * production needs no content folder.
 */
import contentFiles from "virtual:content-files";
import type { DerivedBody } from "../catalogue/derive.ts";
import { buildCatalogue } from "../catalogue/load.ts";

export const catalogue = buildCatalogue(contentFiles);

/** A note by its slug, for the note pages: no list scanned per page. */
export const notesBySlug = new Map(catalogue.notes.map((note) => [note.slug, note]));

/**
 * The slice of the catalogue every page needs: the owner, the links in the header and menu, and
 * the owner's words on the sections (tiles, footer, descriptions, intros, the not-found screen).
 */
export function siteSummary() {
  const { name, description, social, noteApp, blog, lead, footer, sections, notFound } = catalogue.site;
  return { name, description, social, noteApp, blog, lead, footer, sections, notFound };
}
export type SiteSummary = ReturnType<typeof siteSummary>;

export function notFound(): never {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

/** An item as its page shows it: without the Markdown source and plain text, which only the build reads. */
export function forPage<T extends DerivedBody>({ markdown: _source, text: _text, ...item }: T) {
  return item;
}

/** An item as a list shows it: none of what its body gives (a list of 10,000 notes stays small). */
export function withoutBody<T extends DerivedBody>({
  markdown: _source,
  html: _html,
  text: _text,
  wordCount: _words,
  excerpt: _excerpt,
  links: _links,
  images: _images,
  ...item
}: T) {
  return item;
}

/** What a list entry of a book note needs : cover, title, author, date, read time and icon links, everything but the review and what the note page derives. */
export function noteSummary(note: (typeof catalogue.notes)[number]) {
  const {
    podcastEmbed: _podcast,
    youtubeEmbed: _video,
    releaseDate: _release,
    quotes: _quotes,
    reviewed: _reviewed,
    readings: _readings,
    mentionedIn: _mentions,
    ...summary
  } = withoutBody(note);
  return summary;
}
export type NoteSummary = ReturnType<typeof noteSummary>;

/** The podcast and video lists : already newest release first, both by the one comparator (catalogue/load.ts). */
export function embedItems(kind: "podcast" | "video") {
  const notes = kind === "podcast" ? catalogue.withPodcast : catalogue.withVideo;
  return notes.map(({ slug, path, name, author, releaseDate, podcastEmbed, youtubeEmbed }) => ({
    slug,
    path,
    name,
    author,
    releaseDate,
    embed: kind === "podcast" ? podcastEmbed : youtubeEmbed,
  }));
}
