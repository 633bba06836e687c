/**
 * /sitemap.xml (sitemaps.org protocol 0.9) and /robots.txt. Pure: app/routes/sitemap.ts and
 * app/routes/robots.ts serve what these return, prerendered at build time.
 */
import type { IsoDay } from "./dates";
import type { Catalogue } from "./load";
import { absoluteUrl } from "./site-url";
import { escapeXml } from "./xml";

export type SitemapEntry = { path: string; lastmod?: IsoDay };

const newest = (days: readonly (IsoDay | "")[]): IsoDay | undefined => days.filter(Boolean).sort().at(-1) || undefined;

/**
 * Every page of the site, in the order of the route table (app/routes.ts): the sections, and every
 * app, job, note and writing. lastmod is the date the page's content last changed where the
 * content says it: a note's or a writing's date, a Markdown page's `updated`, a list's newest item.
 * An app or a job has no such date, so it has no lastmod. A browser test checks that every
 * prerendered page is listed, so a new route must be added here.
 */
export function sitemapEntries(catalogue: Catalogue): SitemapEntry[] {
  const { pages, apps, work, books, writings, withPodcast, withVideo } = catalogue;
  const noteDates = books.map((note) => note.date);
  const writingDates = writings.map((writing) => writing.date);
  return [
    { path: "/", lastmod: newest([...noteDates, ...writingDates, pages.now.updated, pages.about.updated]) },
    { path: "/now", lastmod: pages.now.updated },
    { path: "/about", lastmod: pages.about.updated },
    { path: "/apps" },
    ...apps.map((app) => ({ path: app.path })),
    { path: "/work" },
    ...work.map((job) => ({ path: job.path })),
    { path: "/notes", lastmod: newest(noteDates) },
    ...books.map((note) => ({ path: note.path, lastmod: note.date })),
    { path: "/stats", lastmod: newest(noteDates) },
    { path: "/write", lastmod: newest(writingDates) },
    ...writings.map((writing) => ({ path: writing.path, lastmod: writing.date })),
    { path: "/podcast", lastmod: newest(withPodcast.map((note) => note.releaseDate)) },
    { path: "/videos", lastmod: newest(withVideo.map((note) => note.releaseDate)) },
    { path: "/contact" },
    { path: "/updates" },
  ];
}

export function sitemapXml(entries: readonly SitemapEntry[], siteUrl: string): string {
  const urls = entries.map(
    ({ path, lastmod }) =>
      `  <url><loc>${escapeXml(absoluteUrl(siteUrl, path))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/** Everything may be crawled but the JSON API; the sitemap is named by its absolute URL, as robots.txt requires. */
export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /api/",
    "",
    `Sitemap: ${absoluteUrl(siteUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
