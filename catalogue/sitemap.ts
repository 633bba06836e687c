/**
 * /sitemap.xml (sitemaps.org protocol 0.9) and /robots.txt. Pure: app/routes/sitemap.xml.ts and
 * app/routes/robots.txt.ts serve what these return, prerendered at build time.
 */
import type { IsoDay } from "./dates.ts";
import type { Catalogue } from "./load.ts";
import { SECTIONS, type SectionId } from "./sections.ts";
import { absoluteUrl } from "./site-url.ts";
import { escapeXml } from "./xml.ts";

export type SitemapEntry = { path: string; lastmod?: IsoDay };

const newest = (days: readonly (IsoDay | "")[]): IsoDay | undefined => days.filter(Boolean).sort().at(-1) || undefined;

/** When a section's page last changed, where the content says it: its newest item, or its Markdown page's `updated`. */
function sectionLastmod(catalogue: Catalogue): Partial<Record<SectionId, IsoDay | undefined>> {
  const { pages, notes, writings, withPodcast, withVideo, updates } = catalogue;
  const noteDates = notes.map((note) => note.date);
  const writingDates = writings.map((writing) => writing.date);
  return {
    home: newest([...noteDates, ...writingDates, pages.now.updated, pages.about.updated]),
    now: pages.now.updated,
    about: pages.about.updated,
    notes: newest(noteDates),
    stats: newest(noteDates),
    write: newest(writingDates),
    podcast: newest(withPodcast.map((note) => note.releaseDate)),
    videos: newest(withVideo.map((note) => note.releaseDate)),
    updates: newest(updates.map((issue) => issue.date)),
  };
}

/**
 * Every page of the site: each section of catalogue/sections.ts followed by the items under its
 * path (an app, a job, a note, a writing). A note or a writing has its date as lastmod; an app or a
 * job has no such date, so it has none. A new section is listed once it is in that one list.
 */
export function sitemapEntries(catalogue: Catalogue): SitemapEntry[] {
  const lastmod = sectionLastmod(catalogue);
  return SECTIONS.flatMap((section) => [
    { path: section.path, ...(lastmod[section.id] ? { lastmod: lastmod[section.id] } : {}) },
    ...[...catalogue.all, ...catalogue.updates]
      .filter((item) => section.path !== "/" && item.path.startsWith(`${section.path}/`))
      .map((item) => ("date" in item ? { path: item.path, lastmod: item.date } : { path: item.path })),
  ]);
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
