import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, waitForReady } from "./helpers.ts";

/**
 * The shell works the same on a page React hydrates and on one that ships no JavaScript but the
 * inline shell script (issue 15): each test runs on both.
 */
const KINDS_OF_PAGE = [
  { kind: "hydrated", path: "/", longPath: "/notes" },
  { kind: "without React", path: "/now", longPath: "/stats" },
] as const;

for (const { kind, path, longPath } of KINDS_OF_PAGE) {
  test.describe(`on a page ${kind}`, () => {
    test("the menu button opens the side menu and its close button closes it", async ({ page }) => {
      await page.goto(path);
      await waitForReady(page);
      const menu = page.getByRole("dialog", { name: "Menu" });
      await expect(menu).toBeHidden();
      await page.getByRole("button", { name: "Menu" }).click();
      await expect(menu).toBeVisible();
      await expectNoAxeViolations(page);
      await menu.getByRole("button", { name: "Close" }).click();
      await expect(menu).toBeHidden();
    });

    test("keyboard: the open menu keeps the page out of reach, Escape closes it and focus returns to the menu button", async ({
      page,
    }) => {
      await page.goto(path);
      await waitForReady(page);
      const button = page.getByRole("button", { name: "Menu" });
      await button.focus();
      await page.keyboard.press("Enter");
      const menu = page.getByRole("dialog", { name: "Menu" });
      await expect(menu).toBeVisible();
      // The modal dialog makes the page behind inert: Tab cycles through the menu and the browser's
      // own controls (where the document has no focused element), never the page.
      const visited = new Set<string>();
      for (let step = 0; step < 25; step++) {
        await page.keyboard.press("Tab");
        const where = await page.evaluate(() => {
          const active = document.activeElement;
          if (!active || active === document.body) return "browser";
          return active.closest("#site-menu") ? "menu" : `page: ${active.outerHTML.slice(0, 80)}`;
        });
        expect(where, `after ${step + 1} tabs`).toMatch(/^(menu|browser)$/);
        visited.add(where);
      }
      expect(visited).toContain("menu");
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();
      await expect(button).toBeFocused();
      await page.keyboard.press(" ");
      await expect(menu).toBeVisible();
    });

    test("the menu links every section and the social links, and closes when a link is chosen", async ({ page }) => {
      await page.goto(path);
      await waitForReady(page);
      await page.getByRole("button", { name: "Menu" }).click();
      const menu = page.getByRole("dialog", { name: "Menu" });
      const nav = menu.getByRole("navigation", { name: "Site" });
      // SH2's sections, then the lists that are linked from nowhere else (issue 11).
      const expected = [
        "Home",
        "Now",
        "About",
        "Apps",
        "Notes",
        "Write",
        "Work",
        "Contact",
        "Podcast",
        "Videos",
        "Updates",
      ];
      await expect(nav.getByRole("link")).toHaveText(expected);
      await expect(menu.getByRole("list", { name: "Social links in the menu" }).getByRole("link")).not.toHaveCount(0);
      await nav.getByRole("link", { name: "About" }).click();
      await expect(page).toHaveURL(/\/about$/);
      await expect(menu).toBeHidden();
      await expect(page.getByRole("heading", { level: 1, name: "About" })).toBeVisible();
    });

    test("'Scroll to the top' appears only after scrolling and brings the page back to the top", async ({ page }) => {
      await page.setViewportSize({ width: 400, height: 500 });
      await page.goto(longPath);
      await waitForReady(page);
      const button = page.getByRole("button", { name: "Scroll to the top" });
      await expect(button).toBeHidden();
      await page.mouse.wheel(0, 800);
      await expect(button).toBeVisible();
      await button.click();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      await expect(button).toBeHidden();
    });
  });
}

test("each route's code loads on demand and a new path starts at the top", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  const noteCode = () => scripts.some((path) => /\/assets\/notes\._slug-[\w-]+\.js$/.test(path));
  // The notes list hydrates; a note page's code is fetched only when the visitor opens one.
  await page.goto("/notes");
  await waitForReady(page);
  expect(noteCode()).toBe(false);
  await page.setViewportSize({ width: 400, height: 400 });
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const link = page.locator('.note-list a[href^="/notes/"]').last();
  const href = await link.getAttribute("href");
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect.poll(noteCode).toBe(true);
  // The router changes the URL first, then renders the page and resets the scroll.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test("on a page without React a link opens the next page at the top", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 400 });
  await page.goto("/stats");
  await waitForReady(page);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.getByRole("contentinfo").getByRole("link", { name: "Podcast", exact: true }).click();
  await expect(page).toHaveURL(/\/podcast$/);
  await waitForReady(page);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test("Podcast, Videos and Updates are reachable from the menu and the footer of every page, Updates from the home page", async ({
  page,
}) => {
  for (const path of ["/", "/notes", "/contact"]) {
    await page.goto(path);
    const footer = page.getByRole("contentinfo").getByRole("navigation", { name: "Sections" });
    for (const [name, href] of [
      ["Podcast", "/podcast"],
      ["Videos", "/videos"],
      ["Updates", "/updates"],
    ] as const) {
      await expect(footer.getByRole("link", { name, exact: true }), path).toHaveAttribute("href", href);
    }
  }
  await page.goto("/");
  await expect(page.locator(".tiles").getByRole("link", { name: /^Updates\b/ })).toHaveAttribute("href", "/updates");
  await page
    .locator(".tiles")
    .getByRole("link", { name: /^Updates\b/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Updates" })).toBeVisible();
});
