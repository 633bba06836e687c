/**
 * The site search without JavaScript, on the real production server of the fixture site: the page
 * says how many results there are and which it shows, plain links page through all of them, and
 * any `page` value is answered with a page of results, never an error.
 */
import { DomUtils, parseDocument } from "htmlparser2";
import { describe, expect, test } from "vitest";
import { buildSearchIndex, RESULTS_PER_PAGE, searchDocuments, searchSite } from "../../catalogue/site-search.ts";
import { catalogue } from "../browser/fixture-site.ts";
import { serverForThisFile } from "./production.ts";

const index = buildSearchIndex(searchDocuments(catalogue));
const QUERY = "allotment";
const { total } = searchSite(index, QUERY);
const lastPage = Math.ceil(total / RESULTS_PER_PAGE);

const origin = serverForThisFile();

/** What a visitor without JavaScript reads on a search page: its status line, its results and its page links. */
async function searchPage(search: string) {
  const response = await fetch(`${origin()}/search${search}`);
  const document = parseDocument(await response.text());
  const all = (className: string) =>
    DomUtils.findAll(
      (node) => DomUtils.getAttributeValue(node, "class")?.split(" ").includes(className) ?? false,
      [document],
    );
  const links = all("pager").flatMap((nav) => DomUtils.getElementsByTagName("a", nav));
  return {
    status: response.status,
    title: DomUtils.textContent(DomUtils.getElementsByTagName("title", document)),
    line: all("results").map((node) => DomUtils.textContent(node))[0],
    paths: all("search-results").flatMap((list) =>
      DomUtils.getElementsByTagName("a", list).map((link) => link.attribs.href),
    ),
    pager: links.map((link) => [link.attribs.rel, link.attribs.href, DomUtils.textContent(link)]),
  };
}

describe("pages of results without JavaScript", () => {
  test("the fixture content has more results for the query than one page shows", () => {
    expect(total).toBeGreaterThan(RESULTS_PER_PAGE);
    expect(lastPage).toBe(2);
  });

  test("the first page says how many results there are and links to the next page", async () => {
    const first = await searchPage(`?q=${QUERY}`);
    expect(first.status).toBe(200);
    expect(first.line).toBe(`Results 1–${RESULTS_PER_PAGE} of ${total}`);
    expect(first.paths).toHaveLength(RESULTS_PER_PAGE);
    expect(first.pager).toEqual([["next", `/search?q=${QUERY}&page=2`, `Next ${RESULTS_PER_PAGE + 1}–${total}`]]);
  });

  test("following the links reaches every result once, in the order of the ranking, and leads back", async () => {
    const first = await searchPage(`?q=${QUERY}`);
    const second = await searchPage(new URL(first.pager[0]?.[1] ?? "", origin()).search);
    expect(second.line).toBe(`Results ${RESULTS_PER_PAGE + 1}–${total} of ${total}`);
    expect(first.title.endsWith(`| Search: ${QUERY}`)).toBe(true);
    expect(second.title.endsWith(`| Search: ${QUERY} (page 2 of 2)`)).toBe(true);
    expect(second.pager).toEqual([["prev", `/search?q=${QUERY}`, `Previous 1–${RESULTS_PER_PAGE}`]]);
    const ranked = searchSite(index, QUERY, { perPage: total }).hits.map((hit) => hit.path);
    expect([...first.paths, ...second.paths]).toEqual(ranked);
    expect(new Set(ranked).size).toBe(total);
  });

  test("a page that is not a whole number from 1 is the first page; a page beyond the last is the last", async () => {
    const first = await searchPage(`?q=${QUERY}`);
    for (const page of ["-1", "0", "abc", "1.5", "", "%00", "1e400", "9".repeat(400)]) {
      expect(await searchPage(`?q=${QUERY}&page=${page}`), page).toEqual(first);
    }
    const last = await searchPage(`?q=${QUERY}&page=${lastPage}`);
    for (const page of [String(lastPage + 1), "99999999999"]) {
      expect(await searchPage(`?q=${QUERY}&page=${page}`), page).toEqual(last);
    }
    expect(await searchPage(`?page=1&page=${lastPage}&q=other&q=${QUERY}`)).toEqual(last);
  });

  test("a query with one result or a few says so, with no page links", async () => {
    const few = ["germinal", "acme", "beans"].map((query) => [query, searchSite(index, query).total] as const);
    for (const [query, count] of few) {
      expect(count, query).toBeGreaterThan(0);
      expect(count, query).toBeLessThanOrEqual(RESULTS_PER_PAGE);
      const page = await searchPage(`?q=${query}`);
      expect(page.line, query).toBe(count === 1 ? "1 result" : `${count} results`);
      expect(page.pager, query).toEqual([]);
    }
    expect(few.some(([, count]) => count === 1)).toBe(true);
  });

  test("a query of stop words only finds titles; a page without a query is the empty search page", async () => {
    const the = await searchPage("?q=the");
    expect(the.line).toMatch(/^\d+ results$/);
    expect(the.paths).toContain("/notes/the-glass-orchard");
    const blank = await searchPage("?page=2");
    expect(blank).toMatchObject({ status: 200, line: "", paths: [], pager: [] });
  });
});
