import type { IsoDay } from "../catalogue/dates.ts";
import type { Catalogue } from "../catalogue/load.ts";
import { bookYears } from "../catalogue/reading-life.ts";
import { SECTIONS, type SectionId } from "../catalogue/sections.ts";
import { absoluteUrl } from "../catalogue/site-url.ts";
import { escapeXml } from "../catalogue/xml.ts";

export type SitemapEntry = { path: string; lastmod?: IsoDay | undefined };

const newest = (days: readonly (IsoDay | "")[]): IsoDay | undefined => days.filter(Boolean).sort().at(-1) || undefined;

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
    shelves: newest(noteDates),
    quotes: newest(catalogue.quotes.map((quote) => quote.note.date)),
    write: newest(writingDates),
    podcast: newest(withPodcast.map((note) => note.releaseDate)),
    videos: newest(withVideo.map((note) => note.releaseDate)),
    updates: newest(updates.map((issue) => issue.date)),
  };
}

function derivedPages(catalogue: Catalogue): Partial<Record<SectionId, SitemapEntry[]>> {
  return {
    quotes: catalogue.quotes.map((quote) => ({ path: quote.path, lastmod: quote.note.date })),
    stats: bookYears(catalogue.notes).map((year) => ({
      path: `/stats/${year}`,
      lastmod: newest(catalogue.listedNotes.filter((note) => note.date.startsWith(`${year}-`)).map((n) => n.date)),
    })),
  };
}

export function derivedPagePaths(catalogue: Catalogue): string[] {
  return Object.values(derivedPages(catalogue)).flatMap((pages) => pages.map((page) => page.path));
}

export function sitemapEntries(catalogue: Catalogue): SitemapEntry[] {
  const lastmod = sectionLastmod(catalogue);
  const derived = derivedPages(catalogue);
  return SECTIONS.flatMap((section) => [
    { path: section.path, lastmod: lastmod[section.id] },
    ...[...catalogue.all, ...catalogue.updates]
      .filter((item) => section.path !== "/" && item.path.startsWith(`${section.path}/`))
      .map((item) => ({ path: item.path, lastmod: "date" in item ? item.date : undefined })),
    ...(derived[section.id] ?? []),
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

// robots.txt requires the sitemap's absolute URL.
export const robotsTxt = (siteUrl: string) =>
  `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${absoluteUrl(siteUrl, "/sitemap.xml")}\n`;
