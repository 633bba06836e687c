/** Dark mode: the system setting, the header toggle, no flash, contrast in both themes. */
import { expect, type Page, test } from "@playwright/test";
import { THEME_STORAGE_KEY } from "../../app/shell/storage-keys.ts";
import { expectNoAxeViolations, waitForReady } from "./helpers.ts";

/** The page's background as [r, g, b]: the root's, which paints the whole canvas. */
async function background(page: Page): Promise<number[]> {
  const color = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const channels = color
    .match(/\d+(\.\d+)?/g)
    ?.slice(0, 3)
    .map(Number);
  if (!channels) throw new Error(`unreadable background ${color}`);
  return channels;
}
const isDark = (rgb: number[]) => Math.max(...rgb) < 64;
const isLight = (rgb: number[]) => Math.min(...rgb) > 224;

const storedTheme = (page: Page) => page.evaluate((key) => localStorage.getItem(key), THEME_STORAGE_KEY);

const blockAppScripts = (page: Page) => page.route("**/assets/*.js", (route) => route.abort());

const toggle = (page: Page) => page.getByRole("button", { name: "Dark theme" });

test.describe("in a dark system setting", () => {
  test.use({ colorScheme: "dark" });

  test("the first paint is dark because the head script sets the theme before any app script runs", async ({
    page,
  }) => {
    await blockAppScripts(page);
    await page.goto("/notes/atomic-habits");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    expect(isDark(await background(page))).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("dark");
    const ink = await page.evaluate(() => getComputedStyle(document.body).color);
    expect(ink).not.toBe("rgb(27, 29, 33)");
  });

  test("a stored light choice wins over the dark system setting from the first paint", async ({ page }) => {
    await page.addInitScript((key) => localStorage.setItem(key, "light"), THEME_STORAGE_KEY);
    await blockAppScripts(page);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    expect(isLight(await background(page))).toBe(true);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("without JavaScript the system setting applies and the toggle, which could do nothing, is hidden", async ({
      page,
    }) => {
      await page.goto("/");
      await expect(page.locator("html")).not.toHaveAttribute("data-theme", /./);
      expect(isDark(await background(page))).toBe(true);
      await expect(toggle(page)).toBeHidden();
    });
  });

  for (const path of [
    "/",
    "/notes",
    "/notes/atomic-habits",
    "/stats",
    "/write",
    "/apps/alpha",
    "/work/acme",
    "/now",
    "/contact",
    "/missing",
  ]) {
    test(`axe finds no violation on ${path} in the dark theme`, async ({ page }) => {
      test.setTimeout(90_000); // the notes list holds every note: axe takes a while
      await page.goto(path);
      await waitForReady(page);
      await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
      await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
      await expectNoAxeViolations(page);
    });
  }

  test("axe finds no violation in the dark theme on the filters overlay, the open menu and a form error", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto("/notes");
    await waitForReady(page);
    await page.getByRole("button", { name: "Filters" }).click();
    await expect(page.getByRole("dialog", { name: "Order by:" })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto("/stats");
    await waitForReady(page);
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto("/contact");
    await waitForReady(page);
    await page.getByRole("button", { name: "send", exact: true }).click();
    await expect(page.locator(".contact-form .form-error")).toHaveText("Please enter your email.");
    await expectNoAxeViolations(page);
  });
});

test.describe("in a light system setting", () => {
  test.use({ colorScheme: "light" });

  test("the toggle switches the theme, by mouse and keyboard, and is remembered across reloads", async ({ page }) => {
    await page.goto("/notes");
    await waitForReady(page);
    expect(isLight(await background(page))).toBe(true);
    expect(await storedTheme(page)).toBeNull();
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");

    await toggle(page).click();
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    expect(isDark(await background(page))).toBe(true);
    expect(await storedTheme(page)).toBe("dark");

    // Remembered: dark from the first paint of the next load, before the app's scripts.
    await blockAppScripts(page);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    expect(isDark(await background(page))).toBe(true);
    await page.unrouteAll();

    // Another page, with JavaScript: the toggle shows the stored choice; the keyboard switches it back.
    await page.goto("/stats");
    await waitForReady(page);
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    await toggle(page).focus();
    await page.keyboard.press("Enter");
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
    expect(isLight(await background(page))).toBe(true);
    expect(await storedTheme(page)).toBe("light");
    await page.keyboard.press(" ");
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    await page.reload();
    await waitForReady(page);
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    expect(isDark(await background(page))).toBe(true);
  });

  test("with no stored choice the page follows a change of the system setting", async ({ page }) => {
    await page.goto("/");
    await waitForReady(page);
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    expect(isDark(await background(page))).toBe(true);
  });

  test("the header toggle fits a 320 px phone and axe passes in the light theme", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto("/");
    await waitForReady(page);
    await expect(toggle(page)).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
  });
});
