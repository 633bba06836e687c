import { SEARCH_INDEX_PATH, searchIndexFile } from "../../catalogue/site-search.ts";
import { absoluteUrl } from "../../catalogue/site-url.ts";
import { noteImagePath } from "../../outputs/card.ts";
import { ATOM_CONTENT_TYPE, notesFeed, quotesFeed, updatesFeed, writingsFeed } from "../../outputs/feeds.ts";
import { FEEDS } from "../../outputs/linked-files.ts";
import { robotsTxt, sitemapEntries, sitemapXml } from "../../outputs/sitemap.ts";
import { catalogue, notFound } from "../catalogue.server.ts";
import { SITE_URL } from "../lib/site-url.ts";
import type { Route } from "./+types/files";

const TEXT_FILES: Record<string, { type: string; write: () => string }> = {
  [FEEDS.writings.path]: { type: ATOM_CONTENT_TYPE, write: () => writingsFeed(catalogue, SITE_URL) },
  [FEEDS.notes.path]: {
    type: ATOM_CONTENT_TYPE,
    write: () => notesFeed(catalogue, SITE_URL, (note) => absoluteUrl(SITE_URL, noteImagePath(note))),
  },
  [FEEDS.updates.path]: { type: ATOM_CONTENT_TYPE, write: () => updatesFeed(catalogue, SITE_URL) },
  [FEEDS.quotes.path]: { type: ATOM_CONTENT_TYPE, write: () => quotesFeed(catalogue, SITE_URL) },
  "/sitemap.xml": {
    type: "application/xml; charset=utf-8",
    write: () => sitemapXml(sitemapEntries(catalogue), SITE_URL),
  },
  "/robots.txt": { type: "text/plain; charset=utf-8", write: () => robotsTxt(SITE_URL) },
  [SEARCH_INDEX_PATH]: { type: "application/json", write: () => searchIndexFile(catalogue) },
};

// Each path of the table is mounted once in app/routes.ts; `pattern` is that route's path, less its first slash.
export function loader({ pattern }: Route.LoaderArgs) {
  const file = TEXT_FILES[`/${pattern}`] ?? notFound();
  return new Response(file.write(), { headers: { "Content-Type": file.type } });
}
