/**
 * Search-engine and sharing metadata on the production build: the Atom feeds, the sitemap and robots.txt, the canonical link,
 * Open Graph and Twitter meta, JSON-LD and the social images. The pages are prerendered with the
 * SITE_URL of the build (its build.json), which need not be the test server's origin.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { DomUtils, parseDocument } from "htmlparser2";
import { readBuildInfo } from "../../build-tools/build-folders.mjs";
import { renderWithAbsoluteLinks } from "../../catalogue/derive.ts";
import { noteImagePath } from "../../outputs/card.ts";
import { FEED_SIZE } from "../../outputs/feeds.ts";
import { first } from "../support/lists.ts";
import { TEST_BUILD } from "../support/test-build.ts";
import { catalogue } from "./fixture-site.ts";
import { expectNoAxeViolations, waitForReady } from "./helpers.ts";

const CLIENT_DIR = join(TEST_BUILD, "client");
const BUILD_URL = readBuildInfo(TEST_BUILD)?.siteUrl ?? "";
const newestFirst = <T extends { date: string }>(items: readonly T[]) =>
  [...items].sort((a, b) => b.date.localeCompare(a.date));

/** The site path of an absolute URL of the build, to fetch it from the test server. */
function sitePath(url: string): string {
  expect(url.startsWith(`${BUILD_URL}/`), `${url} is on ${BUILD_URL}`).toBe(true);
  return url.slice(BUILD_URL.length);
}

function parseXml(xml: string, lists: string[]) {
  const valid = XMLValidator.validate(xml);
  expect(valid === true ? "" : JSON.stringify(valid)).toBe("");
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    parseTagValue: false,
    isArray: (name) => lists.includes(name),
  }).parse(xml);
}

/** What a prerendered page's head says: canonical links, meta by property or name, JSON-LD, the breadcrumb. */
function headOf(html: string) {
  const document = parseDocument(html);
  const elements = (name: string) => DomUtils.getElementsByTagName(name, document);
  const meta = new Map<string, string>();
  for (const tag of elements("meta")) {
    const key = tag.attribs.property ?? tag.attribs.name;
    const content = tag.attribs.content;
    if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
  }
  const canonical = elements("link")
    .filter((link) => link.attribs.rel === "canonical")
    .map((link) => link.attribs.href ?? "");
  const jsonLd = elements("script")
    .filter((script) => script.attribs.type === "application/ld+json")
    .map((script) => JSON.parse(DomUtils.textContent(script)) as Record<string, unknown> & { "@type": string });
  const nav = elements("nav").find((element) => element.attribs["aria-label"] === "Breadcrumb");
  const breadcrumb = nav ? DomUtils.getElementsByTagName("li", nav).map((li) => DomUtils.textContent(li).trim()) : [];
  return { meta, canonical, jsonLd, breadcrumb };
}

async function getHead(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return headOf(await response.text());
}

const note = catalogue.notes.find((book) => book.slug === "atomic-habits") ?? first(catalogue.notes);
const writing = first(catalogue.writings);

/** One page of every kind, with its title as its breadcrumb and og:title show it. */
const PAGE_TYPES = [
  { path: "/", title: catalogue.site.name },
  { path: "/now", title: catalogue.pages.now.title },
  { path: "/about", title: catalogue.pages.about.title },
  { path: "/apps", title: "Apps" },
  { path: first(catalogue.apps).path, title: first(catalogue.apps).name },
  { path: "/work", title: "Work" },
  { path: first(catalogue.work).path, title: first(catalogue.work).name },
  { path: "/notes", title: "Notes" },
  { path: note.path, title: note.name },
  { path: "/stats", title: "Reading stats" },
  { path: "/write", title: "Write" },
  { path: writing.path, title: writing.name },
  { path: "/podcast", title: "Podcast" },
  { path: "/videos", title: "Videos" },
  { path: "/contact", title: "Contact" },
  { path: "/updates", title: "Updates" },
];

test.describe("feeds", () => {
  test("the writings and notes feeds are Atom with the 50 newest items, their full content and absolute URLs", async ({
    request,
  }) => {
    for (const [path, items, pagePath] of [
      ["/feeds/writings.atom", newestFirst(catalogue.writings), "/write"],
      ["/feeds/notes.atom", newestFirst(catalogue.listedNotes), "/notes"],
    ] as const) {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
      const { feed } = parseXml(await response.text(), ["entry", "link"]);
      expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
      expect(feed.id).toBe(`${BUILD_URL}${path}`);
      expect(feed.link.map((link: { "@href": string }) => link["@href"])).toEqual([
        `${BUILD_URL}${path}`,
        `${BUILD_URL}${pagePath}`,
      ]);
      const expected = items.slice(0, FEED_SIZE);
      expect(expected.length).toBe(Math.min(FEED_SIZE, items.length));
      expect(feed.entry.map((entry: { id: string }) => entry.id)).toEqual(
        expected.map((item) => `${BUILD_URL}${item.path}`),
      );
      for (const entry of feed.entry as { content: { "@type": string; "#text": string } }[]) {
        expect(entry.content["@type"]).toBe("html");
        // Full content, its site links and images absolute.
        expect(entry.content["#text"].length).toBeGreaterThan(0);
        expect(entry.content["#text"]).not.toMatch(/(?:src|href)="\/(?!\/)/);
      }
    }
    const { feed } = parseXml(await (await request.get("/feeds/writings.atom")).text(), ["entry"]);
    expect(feed.entry[0].content["#text"]).toBe(renderWithAbsoluteLinks(writing.markdown, BUILD_URL).trim());
  });

  test("every page links the feeds in its head, the footer links all four, and axe stays clean", async ({
    page,
    request,
  }) => {
    for (const path of ["/", note.path, "/contact"]) {
      const html = await (await request.get(path)).text();
      expect(html).toContain(
        '<link rel="alternate" type="application/atom+xml" href="/feeds/writings.atom" title="Writings"/>',
      );
      expect(html).toContain(
        '<link rel="alternate" type="application/atom+xml" href="/feeds/notes.atom" title="Book notes"/>',
      );
    }
    await page.goto("/");
    await waitForReady(page);
    const footer = page.locator("footer");
    await expect(footer.getByRole("link", { name: "Writings feed" })).toHaveAttribute("href", "/feeds/writings.atom");
    await expect(footer.getByRole("link", { name: "Book notes feed" })).toHaveAttribute("href", "/feeds/notes.atom");
    await expect(footer.getByRole("link", { name: "Updates feed" })).toHaveAttribute("href", "/feeds/updates.atom");
    await expect(footer.getByRole("link", { name: "Quotes feed" })).toHaveAttribute("href", "/feeds/quotes.atom");
    await expectNoAxeViolations(page);
    // A plain link: the browser fetches the file, the app does not try to render it.
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url().endsWith("/feeds/notes.atom")),
      footer.getByRole("link", { name: "Book notes feed" }).click(),
    ]);
    expect(response.status()).toBe(200);
  });
});

test.describe("search engines and link previews", () => {
  test("/sitemap.xml lists every prerendered page once, with lastmod, and /robots.txt points at it", async ({
    request,
  }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/xml; charset=utf-8");
    const { urlset } = parseXml(await response.text(), ["url"]);
    const urls = urlset.url as { loc: string; lastmod?: string }[];
    const pages = (readdirSync(CLIENT_DIR, { recursive: true }) as string[])
      .filter((name) => name === "index.html" || name.endsWith("/index.html"))
      // A page kept out of search engines (the site search's) is kept out of the sitemap too.
      .filter(
        (name) => !readFileSync(join(CLIENT_DIR, name), "utf8").includes('<meta name="robots" content="noindex"/>'),
      )
      .map((name) => `/${name.replace(/\/?index\.html$/, "")}`);
    expect(pages.length).toBeGreaterThan(catalogue.all.length);
    expect(urls.map((url) => url.loc).sort()).toEqual(pages.map((path) => `${BUILD_URL}${path}`).sort());
    const lastmod = (path: string) => urls.find((url) => url.loc === `${BUILD_URL}${path}`)?.lastmod;
    expect(lastmod(note.path)).toBe(note.date);
    expect(lastmod(writing.path)).toBe(writing.date);
    expect(lastmod("/now")).toBe(catalogue.pages.now.updated);

    const robots = await request.get("/robots.txt");
    expect(robots.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    const text = await robots.text();
    expect(text).toContain("User-agent: *");
    expect(text).toContain(`Sitemap: ${BUILD_URL}/sitemap.xml`);
  });

  test("every page type has one absolute canonical link, Open Graph and Twitter meta, and a breadcrumb in JSON-LD", async ({
    request,
  }) => {
    const images = new Set<string>();
    for (const { path, title } of PAGE_TYPES) {
      const { meta, canonical, jsonLd, breadcrumb } = await getHead(request, path);
      const url = `${BUILD_URL}${path}`;
      expect(canonical, path).toEqual([url]);
      expect(meta.get("og:url"), path).toBe(url);
      expect(meta.get("og:title"), path).toBe(title);
      expect(meta.get("og:description"), path).toBe(meta.get("description"));
      expect(meta.get("og:site_name"), path).toBe(catalogue.site.name);
      expect(["website", "article", "profile"], path).toContain(meta.get("og:type"));
      expect(meta.get("twitter:title"), path).toBe(title);
      expect(meta.get("twitter:description"), path).toBe(meta.get("description"));
      expect(meta.get("twitter:image"), path).toBe(meta.get("og:image"));
      expect(["summary", "summary_large_image"], path).toContain(meta.get("twitter:card"));
      const image = meta.get("og:image") ?? "";
      expect(image.startsWith(`${BUILD_URL}/`), path).toBe(true);
      images.add(image);
      // The JSON-LD breadcrumb names what the visible one shows, in order, with absolute URLs.
      const list = jsonLd.find((data) => data["@type"] === "BreadcrumbList") as
        | { itemListElement: { name: string; item: string; position: number }[] }
        | undefined;
      if (path === "/") {
        expect(list).toBeUndefined();
      } else {
        expect(
          list?.itemListElement.map((item) => item.name),
          path,
        ).toEqual(breadcrumb);
        expect(list?.itemListElement.at(-1)?.item, path).toBe(url);
        expect(list?.itemListElement.map((item) => item.position)).toEqual(breadcrumb.map((_, index) => index + 1));
      }
    }
    expect(images.size).toBe(PAGE_TYPES.length);
    for (const image of images) {
      const response = await request.get(sitePath(image));
      expect(response.status(), image).toBe(200);
      expect(response.headers()["content-type"], image).toBe("image/png");
    }
  });

  test("a note shares its cover (PNG), its title and its review's first words", async ({ request }) => {
    const { meta } = await getHead(request, note.path);
    expect(meta.get("og:image")).toBe(`${BUILD_URL}${noteImagePath(note)}`);
    expect(meta.get("og:image")).toBe(`${BUILD_URL}/covers/${note.slug}.png`);
    expect(meta.get("og:image:alt")).toBe(`Cover of ${note.name}`);
    expect(meta.get("og:title")).toBe(note.name);
    expect(meta.get("og:description")).toBe(note.excerpt);
    expect(meta.get("og:type")).toBe("article");
    expect(meta.get("twitter:card")).toBe("summary");
    const cover = await request.get(sitePath(meta.get("og:image") ?? ""));
    const png = await cover.body();
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([
      Number(meta.get("og:image:width")),
      Number(meta.get("og:image:height")),
    ]);
  });

  test("the JSON-LD is a Person on home and about, a Book with Review and Rating on a note and a BlogPosting on a writing", async ({
    request,
  }) => {
    const person = {
      "@type": "Person",
      name: catalogue.site.name,
      url: `${BUILD_URL}/`,
      description: catalogue.site.description,
      sameAs: catalogue.site.social.map((link) => link.url),
    };
    for (const path of ["/", "/about"]) {
      expect((await getHead(request, path)).jsonLd).toContainEqual(expect.objectContaining(person));
    }

    const book = (await getHead(request, note.path)).jsonLd.find((data) => data["@type"] === "Book");
    expect(book).toMatchObject({
      "@context": "https://schema.org",
      name: note.name,
      author: { "@type": "Person", name: note.author },
      image: `${BUILD_URL}/covers/${note.slug}.png`,
      review: {
        "@type": "Review",
        author: { "@type": "Person", name: catalogue.site.name },
        datePublished: note.date,
        reviewRating: { "@type": "Rating", ratingValue: note.rating, bestRating: 10, worstRating: 0 },
      },
    });

    const post = (await getHead(request, writing.path)).jsonLd.find((data) => data["@type"] === "BlogPosting");
    expect(post).toMatchObject({
      "@context": "https://schema.org",
      headline: writing.name,
      datePublished: writing.date,
      author: { "@type": "Person", name: catalogue.site.name, url: `${BUILD_URL}/` },
      url: `${BUILD_URL}${writing.path}`,
      timeRequired: `PT${writing.time}M`,
    });
    expect(post?.wordCount).toEqual(expect.any(Number));
    expect(post?.wordCount).toBe(writing.wordCount);
  });

  test("after client-side navigation the canonical link, og:url and JSON-LD in the head follow the page", async ({
    page,
  }) => {
    await page.goto("/write");
    await waitForReady(page);
    await page.getByRole("link", { name: writing.name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: writing.name })).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${BUILD_URL}${writing.path}`);
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(1);
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${BUILD_URL}${writing.path}`);
    const types = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? "{}")["@type"]));
    expect(types).toEqual(["BreadcrumbList", "BlogPosting"]);
  });
});
