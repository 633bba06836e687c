/**
 * Which pages ship React: only those whose interaction needs it. Every other page loads
 * no module script and no modulepreload, keeps the shell's theme toggle and scroll button working
 * through the small inline shell script, and carries Speculation Rules for fast plain navigation.
 * Pages that hydrate do not preload their modules ahead of the first paint.
 */
import { expect, type Page, test } from "@playwright/test";
import { waitForReady } from "./helpers.ts";

const HYDRATED = ["/", "/notes", "/write", "/podcast", "/videos", "/contact", "/updates"];
const SECTIONS_WITHOUT_REACT = ["/now", "/about", "/apps", "/work", "/stats", "/a-page-that-does-not-exist"];

/** The first item page a list links to ("/notes" → "/notes/some-book"), so the test follows the content. */
async function firstItemOf(page: Page, list: string): Promise<string> {
  await page.goto(list);
  const href = await page.locator(`main a[href^="${list}/"]`).first().getAttribute("href");
  if (!href) throw new Error(`${list} links to no item`);
  return href;
}

/** Loads the page and lists the scripts it asked for and the module scripts in its DOM. */
async function scriptsOf(page: Page, path: string) {
  const requested: string[] = [];
  const record = (request: { resourceType(): string; url(): string }) => {
    if (request.resourceType() === "script") requested.push(request.url());
  };
  page.on("request", record);
  await page.goto(path);
  await waitForReady(page);
  page.off("request", record);
  const inDom = await page.evaluate(() => ({
    modules: document.querySelectorAll('script[type="module"]').length,
    preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
    speculation: document.querySelectorAll('script[type="speculationrules"]').length,
  }));
  return { requested, ...inDom };
}

test.describe("page weight", () => {
  test("item pages and plain sections load no module script at all", async ({ page }) => {
    const items = [
      await firstItemOf(page, "/notes"),
      await firstItemOf(page, "/write"),
      await firstItemOf(page, "/apps"),
      await firstItemOf(page, "/work"),
    ];
    for (const path of [...SECTIONS_WITHOUT_REACT, ...items]) {
      const found = await scriptsOf(page, path);
      expect({ path, ...found }).toEqual({ path, requested: [], modules: 0, preloads: 0, speculation: 1 });
    }
  });

  test("pages whose interaction needs React hydrate and carry no speculation rules", async ({ page }) => {
    for (const path of HYDRATED) {
      // The runtime is fetched by the module script after the first paint, never preloaded ahead of it.
      const served = await (await page.request.get(path)).text();
      expect({ path, preloads: served.match(/rel="modulepreload"/g)?.length ?? 0 }).toEqual({ path, preloads: 0 });
      const found = await scriptsOf(page, path);
      const code = found.requested.filter((url) => /\/assets\/[\w-]+\.js$/.test(url));
      expect({ path, loadsCode: code.length > 0, speculation: found.speculation }).toEqual({
        path,
        loadsCode: true,
        speculation: 0,
      });
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBe("true");
    }
  });

  test("a page that hydrates loads at most 110 kB of compressed code: the content loader stays on the server", async ({
    page,
  }) => {
    for (const path of HYDRATED) {
      const sizes: Promise<number>[] = [];
      const record = (response: { url(): string; headerValue(name: string): Promise<string | null> }) => {
        if (/\/assets\/[\w-]+\.js$/.test(response.url()))
          sizes.push(response.headerValue("content-length").then((length) => Number(length)));
      };
      page.on("response", record);
      await page.goto(path, { waitUntil: "networkidle" });
      await waitForReady(page);
      page.off("response", record);
      const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
      expect({ path, underBudget: bytes > 0 && bytes <= 110_000, bytes }).toEqual({ path, underBudget: true, bytes });
    }
  });

  test("on a page without React the theme toggle and the scroll button work", async ({ page }) => {
    const note = await firstItemOf(page, "/notes");
    await page.setViewportSize({ width: 360, height: 400 });
    await page.goto(note);
    await waitForReady(page);
    const toggle = page.locator(".theme-toggle");
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await toggle.click();
    const after = await page.evaluate(() => document.documentElement.dataset.theme);
    expect(after).not.toBe(before);
    await expect(toggle).toHaveAttribute("aria-pressed", String(after === "dark"));
    const scrollTop = page.getByRole("button", { name: "Scroll to the top" });
    await expect(scrollTop).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(scrollTop).toBeVisible();
    await scrollTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(scrollTop).toBeHidden();
  });

  test("a page without React reaches the next one by a plain link, prefetched by the speculation rules", async ({
    page,
  }) => {
    const note = await firstItemOf(page, "/notes");
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto("/about");
    await waitForReady(page);
    const link = page.locator(`a[href="${note}"]`);
    if ((await link.count()) === 0) {
      // The about page need not link a note: any same-site link in the footer does as well.
      await page.locator('footer a[href^="/"]').first().hover();
    } else {
      await link.first().hover();
    }
    await page.locator(".site-name").click();
    await expect(page).toHaveURL(/\/$/);
    // The CSP lets the rules run (their hash is in script-src), so no violation is reported.
    expect(errors.filter((text) => /Content Security Policy|speculation/i.test(text))).toEqual([]);
  });

  const POINTED_LINKS = [
    {
      from: "/",
      link: (page: Page) => page.getByRole("contentinfo").getByRole("link", { name: "Contact", exact: true }),
    },
    { from: "/notes", link: (page: Page) => page.locator(".note-list .note-title a").first() },
  ];

  for (const { from, link: linkOn } of POINTED_LINKS) {
    test(`on ${from}, pointing at a link fetches the next page's code, so the click loads nothing more`, async ({
      page,
    }) => {
      await page.goto(from);
      await waitForReady(page);
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
      });
      const link = linkOn(page);
      const target = await link.getAttribute("href");
      const title = (await link.textContent())?.trim() ?? "";
      await link.hover();
      // The route's module and the modules it imports, side by side, instead of one after the other on the click.
      await expect.poll(() => scripts.length).toBeGreaterThan(1);
      await page.waitForLoadState("networkidle");
      const fetchedAhead = scripts.length;
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${target}$`));
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      expect(scripts.slice(fetchedAhead)).toEqual([]);
    });
  }
});

test.describe("what a content page makes the browser build", () => {
  test("a note's link icons are parts of one image, so the page makes one image of them, not one per kind", async ({
    page,
  }) => {
    await page.goto("/notes/atomic-habits");
    const icons = await page
      .locator(".link-icons a")
      .evaluateAll((links) =>
        links.map((link) => [
          getComputedStyle(link, "::before").maskImage,
          getComputedStyle(link, "::before").maskPosition,
        ]),
      );
    expect(icons.length).toBeGreaterThan(1);
    expect(new Set(icons.map(([image]) => image)).size).toBe(1);
    expect(new Set(icons.map(([, position]) => position)).size).toBe(icons.length);
  });

  test("a note page's drawn covers are written into the page, so no SVG image is loaded for any of them", async ({
    page,
  }) => {
    const images: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "image") images.push(new URL(request.url()).pathname);
    });
    await page.goto("/notes/atomic-habits");
    await waitForReady(page);
    await expect(page.getByRole("img", { name: "Cover of Atomic Habits" })).toBeVisible();
    const related = page.locator(".related-entry .drawn-cover svg");
    expect(await related.count()).toBeGreaterThan(0);
    // Beside its title and author, a related note's drawing says nothing more to a screen reader.
    for (const drawing of await related.all()) await expect(drawing).toHaveAttribute("aria-hidden", "true");
    expect(images.filter((path) => path.startsWith("/covers/"))).toEqual([]);
  });

  test("the notes list keeps its prerendered entries as served when it hydrates, and renders them once the list changes", async ({
    page,
  }) => {
    const rendered = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactFiber")));
    await page.goto("/notes");
    await waitForReady(page);
    expect(await rendered(".search-bar input[name=q]")).toBe(true);
    expect(await rendered(".note-entry")).toBe(false);
    await page.getByRole("searchbox", { name: "Search notes" }).fill("a");
    await expect(page).toHaveURL(/q=a/);
    await expect.poll(() => rendered(".note-entry")).toBe(true);
  });
});
