/** The Atom feeds on the fixture tree: valid XML, every item, absolute URLs, full escaped content. */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { renderWithAbsoluteLinks } from "../../catalogue/derive.ts";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue } from "../../catalogue/load.ts";
import { absoluteUrl } from "../../catalogue/site-url.ts";
import { escapeXml } from "../../catalogue/xml.ts";
import { noteImagePath } from "../../outputs/card.ts";
import { atomDate, atomFeed, FEED_SIZE, notesFeed, writingsFeed } from "../../outputs/feeds.ts";
import { entryAt, first } from "../support/lists.ts";
import { parseXml } from "./xml.ts";

const catalogue = buildCatalogue(readContentFiles(join(import.meta.dirname, "../fixtures")));
const SITE = "https://owner.example";
const coverUrl = (note: Parameters<typeof noteImagePath>[0]) => absoluteUrl(SITE, noteImagePath(note));

type Entry = {
  id: string;
  title: { "#text": string };
  link: { "@href": string; "@rel": string }[];
  published: string;
  updated: string;
  content: { "#text": string; "@type": string };
  category?: { "@term": string }[];
};
type Feed = {
  id: string;
  title: { "#text": string };
  updated: string;
  link: { "@href": string; "@rel": string }[];
  author: { name: string; uri: string };
  entry?: Entry[];
};

const feedOf = (xml: string) => parseXml(xml, ["entry", "category", "link"]).feed as Feed;
const newestFirst = <T extends { date: string }>(items: readonly T[]) =>
  [...items].sort((a, b) => b.date.localeCompare(a.date));

describe("escapeXml and renderWithAbsoluteLinks", () => {
  test("the five XML specials are escaped and characters XML cannot hold are dropped", () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;",
    );
    expect(escapeXml("bell\u0007 form\u000c feed\ufffe lone\ud800 ok")).toBe("bell form feed lone ok");
    expect(escapeXml("tab\tnew\nline 📚 é")).toBe("tab\tnew\nline 📚 é");
  });

  test("root-relative links and images become absolute while full and protocol-relative URLs stay as written", () => {
    const markdown = "[x](/notes/x) ![](/images/a.png) [y](https://e.com/y) [z](//cdn.e.com/z) [w](/write/w)";
    expect(renderWithAbsoluteLinks(markdown, SITE)).toBe(
      `<p><a href="${SITE}/notes/x">x</a> <img src="${SITE}/images/a.png" alt="" /> <a href="https://e.com/y">y</a> <a href="//cdn.e.com/z">z</a> <a href="${SITE}/write/w">w</a></p>\n`,
    );
    // Text that merely looks like a link is left alone: only the link and image tokens change.
    expect(renderWithAbsoluteLinks('`href="/notes/x"`', SITE)).toBe('<p><code>href="/notes/x"</code></p>\n');
    expect(renderWithAbsoluteLinks("", SITE)).toBe("");
  });
});

describe("writingsFeed", () => {
  const xml = writingsFeed(catalogue, SITE);
  const feed = feedOf(xml);

  test("the writings feed is valid Atom with absolute URLs from SITE_URL", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"')).toBe(
      true,
    );
    expect(feed.id).toBe(`${SITE}/feeds/writings.atom`);
    expect(feed.title["#text"]).toBe("Test Owner: Writings");
    expect(feed.link).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ "@rel": "self", "@href": `${SITE}/feeds/writings.atom` }),
        expect.objectContaining({ "@rel": "alternate", "@href": `${SITE}/write` }),
      ]),
    );
    expect(feed.author).toEqual({ name: "Test Owner", uri: `${SITE}/` });
  });

  test("it lists every writing, newest first, with its full body as escaped HTML", () => {
    const expected = newestFirst(catalogue.writings);
    expect(feed.entry?.map((entry) => entry.id)).toEqual(expected.map((writing) => `${SITE}${writing.path}`));
    for (const [index, entry] of (feed.entry ?? []).entries()) {
      const writing = entryAt(expected, index);
      expect(entry.title["#text"]).toBe(writing.name);
      expect(entry.link).toEqual([expect.objectContaining({ "@rel": "alternate", "@href": `${SITE}${writing.path}` })]);
      expect(entry.published).toBe(atomDate(writing.date));
      expect(entry.content["@type"]).toBe("html");
      expect(entry.content["#text"]).toBe(renderWithAbsoluteLinks(writing.markdown, SITE).trim());
      expect(entry.category?.map((category) => category["@term"])).toEqual(writing.tags);
    }
    expect(feed.updated).toBe(atomDate(first(expected).date));
  });

  test(`it keeps only the ${FEED_SIZE} newest writings (here: 2)`, () => {
    const small = feedOf(writingsFeed(catalogue, SITE, 2));
    expect(small.entry?.map((entry) => entry.id)).toEqual(
      newestFirst(catalogue.writings)
        .slice(0, 2)
        .map((writing) => `${SITE}${writing.path}`),
    );
  });
});

describe("notesFeed", () => {
  const feed = feedOf(notesFeed(catalogue, SITE, coverUrl));

  test("it lists every note, newest first, with cover, rating and review", () => {
    const expected = newestFirst(catalogue.listedNotes);
    expect(feed.id).toBe(`${SITE}/feeds/notes.atom`);
    expect(feed.entry).toHaveLength(expected.length);
    for (const [index, entry] of (feed.entry ?? []).entries()) {
      const note = entryAt(expected, index);
      expect(entry.id).toBe(`${SITE}${note.path}`);
      expect(entry.title["#text"]).toBe(`${note.name} by ${note.author}`);
      const content = entry.content["#text"];
      expect(content).toContain(`<img src="${coverUrl(note)}"`);
      if (note.rating !== null) expect(content).toContain(`Rating: ${note.rating.toFixed(1)} / 10.`);
      expect(content.endsWith(renderWithAbsoluteLinks(note.markdown, SITE).trim())).toBe(true);
      expect(content).not.toMatch(/(?:src|href)="\/(?!\/)/);
    }
  });
});

describe("atomFeed", () => {
  test("hostile titles and bodies (markup, ]]>, quotes, control characters) stay valid XML and round-trip", () => {
    const html = `<p>a ]]> b & "c" <script>x</script>\u0001</p>`;
    const xml = atomFeed({
      url: `${SITE}/feeds/x.atom`,
      pageUrl: `${SITE}/x`,
      title: `<Owner> & "Co"`,
      subtitle: "it's",
      author: { name: "A & B", url: `${SITE}/` },
      icon: `${SITE}/favicon.svg`,
      fallbackUpdated: "2020-01-01",
      entries: [
        {
          url: `${SITE}/x?a=1&b=2`,
          title: "</title><x>",
          published: "2021-02-03",
          updated: "2021-02-03",
          html,
          categories: [`"q" & <t>`],
        },
      ],
    });
    const feed = feedOf(xml);
    expect(feed.title["#text"]).toBe(`<Owner> & "Co"`);
    const entry = first(feed.entry ?? []);
    expect(entry.id).toBe(`${SITE}/x?a=1&b=2`);
    expect(entry.title["#text"]).toBe("</title><x>");
    expect(entry.content["#text"]).toBe(html.replace("\u0001", ""));
    expect(first(entry.category ?? [])["@term"]).toBe(`"q" & <t>`);
  });

  test("a feed with no entries is still valid and dated by its fallback", () => {
    const feed = feedOf(
      atomFeed({
        url: `${SITE}/f`,
        pageUrl: `${SITE}/`,
        title: "t",
        subtitle: "s",
        author: { name: "n", url: `${SITE}/` },
        icon: `${SITE}/i`,
        fallbackUpdated: "2020-01-01",
        entries: [],
      }),
    );
    expect(feed.entry).toBeUndefined();
    expect(feed.updated).toBe("2020-01-01T00:00:00Z");
  });
});
