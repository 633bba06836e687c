/** /sitemap.xml and /robots.txt on the fixture tree. */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import routes from "../../app/routes.ts";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue } from "../../catalogue/load.ts";
import { SECTIONS as SITE_SECTIONS } from "../../catalogue/sections.ts";
import { robotsTxt, sitemapEntries, sitemapXml } from "../../outputs/sitemap.ts";
import { parseXml } from "./xml.ts";

const catalogue = buildCatalogue(readContentFiles(join(import.meta.dirname, "../fixtures")));
const SITE = "https://owner.example";

type UrlSet = { urlset: { "@xmlns": string; url: { loc: string; lastmod?: string }[] } };

const SECTIONS = [
  "/",
  "/now",
  "/about",
  "/apps",
  "/work",
  "/notes",
  "/stats",
  "/notes/shelves",
  "/quotes",
  "/write",
  "/podcast",
  "/videos",
];

describe("sitemap", () => {
  const entries = sitemapEntries(catalogue);
  const { urlset } = parseXml(sitemapXml(entries, SITE), ["url"]) as UrlSet;
  const lastmod = (path: string) => urlset.url.find((url) => url.loc === `${SITE}${path}`)?.lastmod;

  test("the sitemap is valid XML of the sitemaps.org schema with one absolute <loc> per page and none twice", () => {
    expect(urlset["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const locs = urlset.url.map((url) => url.loc);
    expect(new Set(locs).size).toBe(locs.length);
    for (const loc of locs) expect(loc.startsWith(`${SITE}/`)).toBe(true);
  });

  test("it lists every section, app, job, note (on any shelf) and writing, and every quote and year page", () => {
    const locs = new Set(urlset.url.map((url) => url.loc));
    const issues = catalogue.updates.map((issue) => issue.path);
    const quotes = catalogue.quotes.map((quote) => quote.path);
    expect(quotes).toContain("/quotes/the-glass-orchard-1");
    const years = ["/stats/2014", "/stats/2015", "/stats/2016", "/stats/2017", "/stats/2018", "/stats/2019"];
    const laterYears = ["/stats/2022", "/stats/2024"];
    const paths = [
      ...SECTIONS,
      "/contact",
      "/updates",
      ...catalogue.all.map((item) => item.path),
      ...issues,
      ...quotes,
      ...years,
      ...laterYears,
    ];
    expect(paths).toContain("/notes/salt-and-iron");
    for (const path of paths) expect(locs, path).toContain(`${SITE}${path}`);
    expect(locs.size).toBe(paths.length);
  });

  test("lastmod is a note's or a writing's date, a page's updated day or a list's newest item, and apps and jobs have none", () => {
    for (const note of catalogue.notes) expect(lastmod(note.path)).toBe(note.date);
    for (const writing of catalogue.writings) expect(lastmod(writing.path)).toBe(writing.date);
    expect(lastmod("/now")).toBe(catalogue.pages.now.updated);
    expect(lastmod("/about")).toBe(catalogue.pages.about.updated);
    const newest = (days: string[]) => [...days].sort().at(-1);
    expect(lastmod("/notes")).toBe(newest(catalogue.notes.map((note) => note.date)));
    expect(lastmod("/write")).toBe(newest(catalogue.writings.map((writing) => writing.date)));
    for (const item of [...catalogue.apps, ...catalogue.work]) expect(lastmod(item.path)).toBeUndefined();
    for (const url of urlset.url) if (url.lastmod) expect(url.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test("every page route of app/routes.ts is a section of catalogue/sections.ts, so the sitemap and the menu know it", () => {
    // The page a reply's confirmation mail links to is one visitor's, never listed: no section holds it.
    const mailLinkPages = new Set(["replies/confirm"]);
    const routePaths = routes
      .filter((route) => route.file.endsWith(".tsx") && route.path !== "*" && !mailLinkPages.has(route.path ?? ""))
      .map((route) => (route.index ? "/" : `/${route.path}`));
    const sectionPaths: string[] = SITE_SECTIONS.map((section) => section.path);
    // A page below a section (an item's /notes/:slug, a mail link's /updates/confirm) is listed under it.
    for (const path of routePaths) {
      const section = path.replace(/\/[^/]+$/, "") || "/";
      expect(sectionPaths, path).toContain(sectionPaths.includes(path) ? path : section);
    }
    for (const path of sectionPaths) expect(routePaths, path).toContain(path);
  });
});

describe("robots.txt", () => {
  test("it allows crawling of everything but the API and names the sitemap by its absolute URL", () => {
    const robots = robotsTxt(SITE);
    expect(robots.split("\n")).toEqual([
      "User-agent: *",
      "Allow: /",
      "Disallow: /api/",
      "",
      `Sitemap: ${SITE}/sitemap.xml`,
      "",
    ]);
  });
});
