import { expect, type Page, test } from "@playwright/test";
import { waitForReady } from "./helpers.ts";

/** Presses Tab until the focused element matches the selector, failing after `limit` presses. */
async function tabTo(page: Page, selector: string, limit = 80) {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** The focused element shows a visible focus ring. */
async function expectVisibleFocus(page: Page) {
  const outline = await page.evaluate(() => {
    const active = document.activeElement as HTMLElement;
    const style = getComputedStyle(active);
    const ringInside = active.closest(".search-field");
    return ringInside ? getComputedStyle(ringInside).outlineStyle : style.outlineStyle;
  });
  expect(outline).not.toBe("none");
}

test.describe("keyboard use", () => {
  test("the whole visit works by keyboard alone: menu, notes, search, sort, tag, a note, sign-up and contact", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto("/");
    await waitForReady(page);

    await tabTo(page, ".menu-button");
    await expectVisibleFocus(page);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Menu" })).toBeHidden();
    await page.keyboard.press("Enter");
    await tabTo(page, '#site-menu a[href="/notes"]');
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/notes$/);
    await expect(page.getByRole("dialog", { name: "Menu" })).toBeHidden();

    await tabTo(page, 'input[name="q"]');
    await expectVisibleFocus(page);
    await page.keyboard.type("the");
    await expect(page.getByText(/^Results \(\d+\)$/)).toBeVisible();

    await tabTo(page, ".filters-button");
    await expectVisibleFocus(page);
    await page.keyboard.press("Enter");
    const overlay = page.getByRole("dialog", { name: "Order by:" });
    await expect(overlay).toBeVisible();
    await tabTo(page, '#filters button[value="title"]');
    await page.keyboard.press("Enter");
    await expect(overlay).toBeHidden();
    await expect(page).toHaveURL(/sort=title/);

    await page.keyboard.press("Enter");
    await expect(overlay).toBeVisible();
    await tabTo(page, '#filters button[value="Fiction"]');
    await expectVisibleFocus(page);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/tag=Fiction/);
    await page.keyboard.press("Escape");
    await expect(overlay).toBeHidden();
    await tabTo(page, ".chip-button");
    await page.keyboard.press("Enter");
    await expect(page).not.toHaveURL(/tag=/);

    await tabTo(page, ".note-title a");
    await expectVisibleFocus(page);
    const title = await page.evaluate(() => document.activeElement?.textContent ?? "");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

    await page.goto("/updates");
    await waitForReady(page);
    await tabTo(page, "#signup-email");
    await page.keyboard.type(`keyboard-${Date.now()}@example.com`);
    await page.keyboard.press("Enter");
    await expect(page.getByText("Thank you for your interest :)")).toBeVisible();

    await page.goto("/contact");
    await waitForReady(page);
    await tabTo(page, "#contact-email");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("keyboard@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Sent by keyboard");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Every step without a mouse.");
    await tabTo(page, ".contact-form .primary-button");
    await expectVisibleFocus(page);
    await page.keyboard.press("Enter");
    await expect(page.getByText("I'll email you back shortly :)")).toBeVisible();
  });

  test("animations and smooth scrolling are off under prefers-reduced-motion", async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: "reduce", viewport: { width: 400, height: 500 } });
    const page = await context.newPage();
    await page.goto("/notes");
    await waitForReady(page);
    await page.mouse.wheel(0, 1200);
    const button = page.getByRole("button", { name: "Scroll to the top" });
    await expect(button).toBeVisible();
    await button.click();
    // With motion reduced the jump is immediate: already at the top on the next frame.
    expect(await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(window.scrollY))))).toBe(0);
    await context.close();
  });
});
