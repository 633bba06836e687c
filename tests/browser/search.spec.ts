/**
 * The site search, on the production build of the fixture site: /search and the header's form
 * without JavaScript; with it, the dialog ("/" or Ctrl/⌘-K, from pages with and without React),
 * results as one types on /search, the index fetched on first use only and kept by the browser;
 * the number of results and the pages beyond the first, with JavaScript as without.
 */
import { expect, type Page, test } from "@playwright/test";
import { MAX_QUERY_LENGTH } from "../../catalogue/search-text.ts";
import { buildSearchIndex, RESULTS_PER_PAGE, searchDocuments, searchSite } from "../../catalogue/site-search.ts";
import { catalogue } from "./fixture-site.ts";
import { expectNoAxeViolations, waitForReady } from "./helpers.ts";

const resultTitles = (page: Page, scope = "main") => page.locator(`${scope} .search-results .search-title`);

/** Every request for the search module or its index, as the page makes them. */
function trackSearchFiles(page: Page) {
  const requested: string[] = [];
  page.on("request", (request) => {
    if (/\/(assets\/search-client-[\w-]+\.js|search-index\.json)$/.test(request.url())) requested.push(request.url());
  });
  return {
    modules: () => requested.filter((url) => url.endsWith(".js")),
    indexes: () => requested.filter((url) => url.endsWith(".json")),
  };
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the header's search form on any page shows ranked results, a review's phrase finding its note first", async ({
    page,
  }) => {
    await page.goto("/notes/deep-work");
    const field = page.getByRole("searchbox", { name: "Search the site" });
    await field.fill("a novel about miners");
    await field.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=a\+novel\+about\+miners$/);
    await expect(resultTitles(page).first()).toHaveText("Germinal");
    const first = page.locator("main .search-results li").first();
    await expect(first.locator(".search-kind")).toHaveText("Book note");
    await expect(first.locator("time")).toHaveAttribute("datetime", "2016-09-09");
    await expect(first.locator(".search-snippet mark")).toHaveText(["novel", "about", "miners"]);
    await first.getByRole("link").click();
    await expect(page).toHaveURL(/\/notes\/germinal$/);
  });

  test("a phrase from an essay finds the essay, a misspelt title the book, an accent-free name the accented one", async ({
    page,
  }) => {
    const firstResult = async (query: string) => {
      await page.goto(`/search?${new URLSearchParams({ q: query })}`);
      return page.locator("main .search-results a").first();
    };
    await expect(await firstResult("fear points at what matters")).toHaveAttribute("href", "/write/fear");
    await expect(await firstResult("atomik habbits")).toHaveAttribute("href", "/notes/atomic-habits");
    await expect(await firstResult("emile zola")).toHaveAttribute("href", "/notes/germinal");
    await expect(await firstResult("first fixture issue")).toHaveAttribute("href", "/updates/first-issue");
  });

  test("an empty or blank query shows the page with a hint; a query of 500 characters is cut, never refused", async ({
    page,
  }) => {
    for (const path of ["/search", "/search?q=", "/search?q=%20%20%20"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.locator(".search-hint")).toBeVisible();
      await expect(page.locator("main .search-results")).toHaveCount(0);
    }
    const response = await page.goto(`/search?q=germinal${"x".repeat(500)}`);
    expect(response?.status()).toBe(200);
    const value = await page.getByRole("searchbox", { name: "Search the site" }).last().inputValue();
    expect(value.length).toBe(MAX_QUERY_LENGTH);
    await expect(page.locator("main .results")).toContainText("Nothing found");
  });

  test("results are kept out of search engines, the sitemap and the feeds", async ({ page, request }) => {
    await page.goto("/search?q=habits");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    for (const path of ["/sitemap.xml", "/feeds/notes.atom", "/feeds/writings.atom", "/feeds/updates.atom"]) {
      expect(await (await request.get(path)).text(), path).not.toContain("/search");
    }
  });

  test("the notes list that finds nothing offers to search everything", async ({ page }) => {
    await page.goto("/notes?q=novel%20about%20miners");
    await expect(page.locator("main .empty")).toHaveText("No notes");
    await page.getByRole("link", { name: "Search everything for “novel about miners”" }).click();
    await expect(resultTitles(page).first()).toHaveText("Germinal");
  });
});

test("a page without React loads nothing for search until it is used, then the module and the index once", async ({
  page,
}) => {
  const files = trackSearchFiles(page);
  await page.goto("/notes/germinal");
  await waitForReady(page);
  await page.waitForTimeout(300);
  expect(files.modules()).toEqual([]);
  expect(files.indexes()).toEqual([]);
  await page.keyboard.press("/");
  const dialog = page.getByRole("dialog", { name: "Search the site" });
  await expect(dialog).toBeVisible();
  await page.keyboard.type("atomik habbits");
  await expect(resultTitles(page, ".search-dialog").first()).toHaveText("Atomic Habits");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.keyboard.press("Control+k");
  await expect(dialog).toBeVisible();
  await page.keyboard.type("emile");
  await expect(resultTitles(page, ".search-dialog").first()).toHaveText("Germinal");
  expect(files.modules()).toHaveLength(1);
  expect(files.indexes()).toHaveLength(1);
});

test("/search, with or without a query, loads no module script: it is a page without React", async ({ page }) => {
  for (const path of ["/search", "/search?q=habits"]) {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto(path);
    await waitForReady(page);
    expect({ path, scripts, modules: await page.locator('script[type="module"]').count() }).toEqual({
      path,
      scripts: [],
      modules: 0,
    });
    page.removeAllListeners("request");
  }
});

test("the index has one address in every build, compressed, and the browser asks again only whether it changed", async ({
  page,
  request,
}) => {
  await page.goto("/about");
  const url = await page.locator("script[data-search-index]").getAttribute("data-search-index");
  expect(url).toBe("/search-index.json");
  const response = await request.get(url ?? "", { headers: { "Accept-Encoding": "gzip" } });
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("public, max-age=0, must-revalidate");
  expect(response.headers()["content-encoding"]).toBe("gzip");
  const etag = response.headers().etag ?? "";
  expect(etag).not.toBe("");
  const again = await request.get(url ?? "", { headers: { "Accept-Encoding": "gzip", "If-None-Match": etag } });
  expect(again.status()).toBe(304);
});

test("keyboard only: from the header's field, results as one types, arrows to a result, Enter opens it", async ({
  page,
}) => {
  await page.goto("/about");
  await waitForReady(page);
  // Tab from the skip link, past the site's name, to the header's field.
  for (let presses = 0; presses < 5; presses++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.matches("[data-search-field='header']"))) break;
  }
  await page.keyboard.type("deep work");
  const dialog = page.locator(".search-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("searchbox")).toHaveValue("deep work");
  await expect(resultTitles(page, ".search-dialog").first()).toHaveText("Deep Work");
  await page.keyboard.press("ArrowDown");
  await expect(dialog.locator(".search-results a").first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(dialog.locator(".search-results a").nth(1)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect(dialog.getByRole("searchbox")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/notes\/deep-work$/);
});

test("Enter in the dialog's field shows every result on /search", async ({ page }) => {
  await page.goto("/");
  await waitForReady(page);
  await page.keyboard.press("Control+k");
  await expect(page.locator(".search-dialog")).toBeVisible();
  await page.keyboard.type("habits");
  await expect(resultTitles(page, ".search-dialog").first()).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=habits$/);
  await expect(resultTitles(page).first()).toHaveText("Atomic Habits");
});

test("the dialog opens on a page with React too, and axe finds nothing wrong with it", async ({ page }) => {
  await page.goto("/notes");
  await waitForReady(page);
  await page.keyboard.press("/");
  const dialog = page.getByRole("dialog", { name: "Search the site" });
  await expect(dialog).toBeVisible();
  await page.keyboard.type("miners");
  await expect(dialog.locator(".search-snippet mark")).toHaveText("miners");
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // "/" typed in a field is a character, not the shortcut.
  await page.getByRole("searchbox", { name: "Search notes" }).fill("");
  await page.getByRole("searchbox", { name: "Search notes" }).press("/");
  await expect(dialog).toBeHidden();
});

test("/search shows results as one types, in place, with the URL kept in step; axe finds nothing wrong", async ({
  page,
}) => {
  await page.goto("/search?q=fear");
  await waitForReady(page);
  await expect(resultTitles(page).first()).toHaveText("Fear");
  // A full page load would lose this mark.
  await page.evaluate(() => {
    (window as unknown as { stayed: boolean }).stayed = true;
  });
  const field = page.locator("main").getByRole("searchbox", { name: "Search the site" });
  await field.fill("");
  await field.pressSequentially("germnal");
  await expect(page.locator("[data-search-results='page']")).toHaveAttribute("data-query", "germnal");
  await expect(resultTitles(page).first()).toHaveText("Germinal");
  await expect(page).toHaveURL(/\/search\?q=germnal$/);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await expectNoAxeViolations(page);
});

test.describe("counts and pages with JavaScript", () => {
  const many = searchSite(buildSearchIndex(searchDocuments(catalogue)), "allotment");

  test("/search as one types says how many results there are, and its Next link reaches the rest", async ({ page }) => {
    expect(many.total).toBeGreaterThan(RESULTS_PER_PAGE);
    await page.goto("/search");
    await waitForReady(page);
    const field = page.locator("main").getByRole("searchbox", { name: "Search the site" });
    await field.pressSequentially("allotment");
    await expect(page.locator("[data-search-results='page']")).toHaveAttribute("data-query", "allotment");
    await expect(page.locator("main .results")).toHaveText(`Results 1–${RESULTS_PER_PAGE} of ${many.total}`);
    await expect(resultTitles(page)).toHaveCount(RESULTS_PER_PAGE);
    await expect(page).toHaveURL(/\/search\?q=allotment$/);
    const pages = page.getByRole("navigation", { name: "Result pages" });
    await expect(pages.getByRole("link")).toHaveCount(1);
    await pages.getByRole("link", { name: /^Next/ }).click();
    await expect(page).toHaveURL(/\/search\?q=allotment&page=2$/);
    await expect(page.locator("main .results")).toHaveText(
      `Results ${RESULTS_PER_PAGE + 1}–${many.total} of ${many.total}`,
    );
    await expect(resultTitles(page)).toHaveCount(many.total - RESULTS_PER_PAGE);
    await expectNoAxeViolations(page);
  });

  test("a new query typed on a later page starts again at its first page, without page links when one page holds it", async ({
    page,
  }) => {
    await page.goto("/search?q=allotment&page=2");
    await waitForReady(page);
    const field = page.locator("main").getByRole("searchbox", { name: "Search the site" });
    await field.fill("");
    await field.pressSequentially("beans");
    const beans = searchSite(buildSearchIndex(searchDocuments(catalogue)), "beans");
    await expect(page.locator("main .results")).toHaveText(`${beans.total} results`);
    await expect(resultTitles(page)).toHaveText(beans.hits.map((hit) => hit.title));
    await expect(page.getByRole("navigation", { name: "Result pages" })).toHaveCount(0);
    await expect(page).toHaveURL(/\/search\?q=beans$/);
  });

  test("the dialog shows the first results and links to all of them by their number", async ({ page }) => {
    await page.goto("/about");
    await waitForReady(page);
    await page.keyboard.press("/");
    const dialog = page.getByRole("dialog", { name: "Search the site" });
    await expect(dialog).toBeVisible();
    await page.keyboard.type("allotment");
    await expect(dialog.locator(".results")).toHaveText(`Results 1–8 of ${many.total}`);
    await expect(resultTitles(page, ".search-dialog")).toHaveCount(8);
    const all = dialog.getByRole("link", { name: `All ${many.total} results` });
    await expect(all).toHaveAttribute("href", "/search?q=allotment");
    await all.click();
    await expect(page.locator("main .results")).toHaveText(`Results 1–${RESULTS_PER_PAGE} of ${many.total}`);
  });

  test("a query of stop words only finds the titles that read as it", async ({ page }) => {
    await page.goto("/search");
    await waitForReady(page);
    await page.locator("main").getByRole("searchbox", { name: "Search the site" }).pressSequentially("the");
    await expect(page.locator("main .results")).toHaveText(/^\d+ results$/);
    await expect(resultTitles(page).first()).toHaveText(/^The /);
  });
});
