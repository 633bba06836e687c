import type { IsoDay } from "../catalogue/dates.ts";
import { renderWithAbsoluteLinks } from "../catalogue/derive.ts";
import type { Catalogue, QuoteOfNote } from "../catalogue/load.ts";
import type { Note } from "../catalogue/schema.ts";
import { SHELF_LABELS } from "../catalogue/shelves.ts";
import { absoluteUrl } from "../catalogue/site-url.ts";
import { escapeXml } from "../catalogue/xml.ts";
import { FEEDS } from "./linked-files.ts";

export const FEED_SIZE = 50;

export const ATOM_CONTENT_TYPE = "application/atom+xml; charset=utf-8";

export const atomDate = (day: IsoDay) => `${day}T00:00:00Z`;

export type AtomEntry = ReturnType<typeof pageEntry>;

export type AtomFeed = {
  url: string;
  pageUrl: string;
  title: string;
  subtitle: string;
  author: { name: string; url: string };
  icon: string;
  entries: readonly AtomEntry[];
  fallbackUpdated: IsoDay;
};

export function atomFeed(feed: AtomFeed): string {
  const newest = feed.entries
    .map((entry) => entry.updated)
    .sort()
    .at(-1);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `  <id>${escapeXml(feed.url)}</id>`,
    `  <title type="text">${escapeXml(feed.title)}</title>`,
    `  <subtitle type="text">${escapeXml(feed.subtitle)}</subtitle>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(feed.url)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(feed.pageUrl)}"/>`,
    `  <updated>${atomDate(newest || feed.fallbackUpdated)}</updated>`,
    `  <author><name>${escapeXml(feed.author.name)}</name><uri>${escapeXml(feed.author.url)}</uri></author>`,
    `  <icon>${escapeXml(feed.icon)}</icon>`,
  ];
  for (const entry of feed.entries) {
    lines.push(
      "  <entry>",
      `    <id>${escapeXml(entry.url)}</id>`,
      `    <title type="text">${escapeXml(entry.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(entry.url)}"/>`,
      `    <published>${atomDate(entry.published)}</published>`,
      `    <updated>${atomDate(entry.updated)}</updated>`,
      ...entry.categories.map((term) => `    <category term="${escapeXml(term)}"/>`),
      `    <content type="html">${escapeXml(entry.html)}</content>`,
      "  </entry>",
    );
  }
  lines.push("</feed>", "");
  return lines.join("\n");
}

type FeedName = keyof typeof FEEDS;

function siteFeed(catalogue: Catalogue, siteUrl: string, which: FeedName, subtitle: string, entries: AtomEntry[]) {
  const { path, title, listPath } = FEEDS[which];
  const owner = catalogue.site.name;
  return atomFeed({
    url: absoluteUrl(siteUrl, path),
    pageUrl: absoluteUrl(siteUrl, listPath),
    title: `${owner}: ${title}`,
    subtitle,
    author: { name: owner, url: `${siteUrl}/` },
    icon: absoluteUrl(siteUrl, "/favicon.svg"),
    entries,
    fallbackUpdated: catalogue.pages.now.updated,
  });
}

type EntryPage = { path: string; date: IsoDay; markdown: string };

function pageEntry(page: EntryPage, title: string, categories: readonly string[], siteUrl: string) {
  return {
    url: absoluteUrl(siteUrl, page.path),
    title,
    published: page.date,
    updated: page.date,
    html: renderWithAbsoluteLinks(page.markdown, siteUrl),
    categories,
  };
}

function noteEntry(note: Note, siteUrl: string, coverUrl: string): AtomEntry {
  const facts = `<p><img src="${escapeXml(coverUrl)}" alt="${escapeXml(`Cover of ${note.name}`)}" width="129" height="190"></p><p>${escapeXml(`${note.name} by ${note.author}. ${note.rating === null ? "" : `Rating: ${note.rating.toFixed(1)} / 10.`}${note.shelf === "did-not-finish" ? ` ${SHELF_LABELS["did-not-finish"]}.` : ""}`.trim())}</p>`;
  const entry = pageEntry(note, `${note.name} by ${note.author}`, note.tags, siteUrl);
  return { ...entry, html: facts + entry.html };
}

export function writingsFeed(catalogue: Catalogue, siteUrl: string, size = FEED_SIZE): string {
  const entries = catalogue.writings
    .slice(0, size)
    .map((writing) => pageEntry(writing, writing.name, writing.tags, siteUrl));
  return siteFeed(catalogue, siteUrl, "writings", `The newest essays of ${catalogue.site.name}.`, entries);
}

export function notesFeed(catalogue: Catalogue, siteUrl: string, coverUrl: (note: Note) => string, size = FEED_SIZE) {
  const entries = catalogue.listedNotes.slice(0, size).map((note) => noteEntry(note, siteUrl, coverUrl(note)));
  return siteFeed(catalogue, siteUrl, "notes", `The newest book notes and ratings of ${catalogue.site.name}.`, entries);
}

export function updatesFeed(catalogue: Catalogue, siteUrl: string, size = FEED_SIZE): string {
  const entries = catalogue.updates.slice(0, size).map((issue) => pageEntry(issue, issue.title, [], siteUrl));
  return siteFeed(catalogue, siteUrl, "updates", `The newsletter of ${catalogue.site.name}.`, entries);
}

function quoteEntry(quote: QuoteOfNote, siteUrl: string): AtomEntry {
  const words = quote.text
    .split("\n")
    .map((paragraph) => `<p>${escapeXml(paragraph)}</p>`)
    .join("");
  const source = `<p>— <a href="${escapeXml(absoluteUrl(siteUrl, quote.note.path))}">${escapeXml(quote.note.name)}</a>, ${escapeXml(quote.note.author)}, ${escapeXml(quote.attribution)}</p>`;
  return {
    url: absoluteUrl(siteUrl, quote.path),
    title: `${quote.note.name}, ${quote.attribution}`,
    published: quote.note.date,
    updated: quote.note.date,
    html: `<blockquote>${words}</blockquote>${source}`,
    categories: [],
  };
}

export function quotesFeed(catalogue: Catalogue, siteUrl: string, size = FEED_SIZE): string {
  const entries = catalogue.quotes.slice(0, size).map((quote) => quoteEntry(quote, siteUrl));
  return siteFeed(catalogue, siteUrl, "quotes", `Quotes from the books ${catalogue.site.name} has read.`, entries);
}
