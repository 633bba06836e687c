import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DerivedBody } from "../catalogue/derive.ts";
import { contentRoot, readPublishedFiles } from "../catalogue/disk.ts";
import { fediverseAddress, siteHandle } from "../catalogue/handle.ts";
import { buildCatalogue } from "../catalogue/load.ts";
import { SITE_URL } from "./lib/site-url.ts";

// A build holds its published content and public files beside its server bundle, so production
// reads no content folder; `npm run dev` reads the content root, and reloads this module on an edit.
const fromBuild = !import.meta.env.DEV;
const root = fromBuild ? fileURLToPath(new URL("..", import.meta.url)) : contentRoot(process.cwd());

export const catalogue = buildCatalogue(readPublishedFiles(root));

/** A file of the site's public folder, by its site path. */
export const readPublicFile = (sitePath: string) => readFileSync(join(root, fromBuild ? "client" : "public", sitePath));

export const notesBySlug = new Map(catalogue.notes.map((note) => [note.slug, note]));

export function siteSummary() {
  const { name, description, social, noteApp, blog, lead, footer, sections, notFound, menu, tiles, replies } =
    catalogue.site;
  const fediverse = fediverseAddress(siteHandle(catalogue.site), SITE_URL);
  // Only the form's own words: the confirm page and the mail read the rest on the server.
  const replyForm = { invite: replies.invite, sent: replies.sent };
  return {
    name,
    description,
    social,
    noteApp,
    blog,
    lead,
    footer,
    sections,
    notFound,
    menu,
    tiles,
    fediverse,
    replyForm,
  };
}
export type SiteSummary = ReturnType<typeof siteSummary>;

export function notFound(): never {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export function forPage<T extends DerivedBody>({ markdown: _source, text: _text, ...item }: T) {
  return item;
}

// Without its body, a list of 10,000 notes stays small.
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

export function noteSummary(note: (typeof catalogue.notes)[number]) {
  const {
    podcastEmbed: _podcast,
    youtubeEmbed: _video,
    releaseDate: _release,
    series: _series,
    quotes: _quotes,
    reviewed: _reviewed,
    readings: _readings,
    mentionedIn: _mentions,
    ...summary
  } = withoutBody(note);
  return summary;
}
export type NoteSummary = ReturnType<typeof noteSummary>;

export function embedItems(kind: "podcast" | "video") {
  const notes = kind === "podcast" ? catalogue.withPodcast : catalogue.withVideo;
  return notes.map(({ slug, path, name, author, photo, releaseDate, rating, excerpt, podcastEmbed, youtubeEmbed }) => ({
    slug,
    path,
    name,
    author,
    photo,
    releaseDate,
    rating,
    excerpt,
    embed: kind === "podcast" ? podcastEmbed : youtubeEmbed,
  }));
}
