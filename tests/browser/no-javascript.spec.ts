import { expect, test } from "@playwright/test";
import { applyFilters } from "../../catalogue/filters.ts";
import { first } from "../support/lists.ts";
import { catalogue } from "./fixture-site.ts";
import { confirmationLink } from "./mailbox.ts";

test.use({ javaScriptEnabled: false });

test("every kind of page renders fully without JavaScript", async ({ page }) => {
  const pages: Array<[string, string]> = [
    ["/", catalogue.site.name],
    ["/now", "Now"],
    ["/about", "About"],
    ["/apps", "Apps"],
    ["/apps/alpha", "Alpha"],
    ["/work", "Work"],
    ["/work/acme", "Acme"],
    ["/notes", "Notes"],
    ["/notes/atomic-habits", "Atomic Habits"],
    ["/write", "Write"],
    ["/write/fear", "Fear"],
    ["/podcast", "Podcast"],
    ["/videos", "Videos"],
    ["/contact", "Contact"],
    ["/updates", "Updates"],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading }), path).toBeVisible();
    await expect(page.locator(".site-footer"), path).toBeVisible();
  }
  await page.goto("/podcast");
  await expect(page.locator(".embed-podcast iframe")).toHaveCount(catalogue.withPodcast.length);
});

test("without JavaScript, the menu opens and closes with its buttons (invoker commands), and its links work", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.locator('a[role="button"]')).toHaveCount(0);
  const menu = page.locator("#site-menu");
  await expect(menu).toBeHidden();
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(menu).toBeVisible();
  await menu.getByRole("button", { name: "Close" }).click();
  await expect(menu).toBeHidden();
  await page.getByRole("button", { name: "Menu" }).click();
  await menu.getByRole("link", { name: "Notes" }).click();
  await expect(page).toHaveURL(/\/notes$/);
  await expect(page.locator("#site-menu")).toBeHidden();
});

test("without JavaScript, where a browser lacks invoker commands, the same buttons open the menu and the overlay as popovers", async ({
  page,
}) => {
  await page.goto("/notes");
  // Such a browser ignores the commandfor attribute: without it the buttons fall back to popovertarget.
  await page.evaluate(() => {
    for (const button of document.querySelectorAll("[commandfor]")) button.removeAttribute("commandfor");
  });
  const menuButton = page.getByRole("button", { name: "Menu" });
  const menu = page.locator("#site-menu");
  await menuButton.click();
  await expect(menu).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await menu.getByRole("button", { name: "Close" }).click();
  await expect(menu).toBeHidden();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");

  const overlay = page.locator("#filters");
  await page.getByRole("button", { name: "Filters" }).click();
  await expect(overlay).toBeVisible();
  await overlay.getByRole("button", { name: "Close" }).click();
  await expect(overlay).toBeHidden();
  await page.getByRole("button", { name: "Filters" }).click();
  await overlay.getByRole("button", { name: "Rating" }).click();
  await expect(page).toHaveURL(/sort=rating/);
  await expect(page.locator("#filters")).toBeHidden();
});

test("without JavaScript, the notes list shows every note; search, sort and tags work by plain form submission", async ({
  page,
}) => {
  await page.goto("/notes");
  await expect(page.locator(".note-title")).toHaveCount(catalogue.notes.length);
  await page.getByPlaceholder("Search...").fill("habit");
  await page.getByPlaceholder("Search...").press("Enter");
  await expect(page).toHaveURL(/\/notes\?.*q=habit/);
  const habit = applyFilters(catalogue.notes, { search: "habit", sort: "date", tag: "" });
  await expect(page.getByText(`Results (${habit.length})`)).toBeVisible();
  await expect(page.locator(".note-title")).toHaveText(habit.map((note) => note.name));
  await expect(page.getByText("Sorted by Date")).toBeVisible();
  await page.getByRole("button", { name: "Filters" }).click();
  const overlay = page.locator("#filters");
  await expect(overlay).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
  await overlay.getByRole("button", { name: "Rating" }).click();
  const byRating = applyFilters(catalogue.notes, { search: "habit", sort: "rating", tag: "" });
  await expect(page.locator(".note-title")).toHaveText(byRating.map((note) => note.name));
  await expect(page.getByText("Sorted by Rating")).toBeVisible();
  await expect(page.locator(".note-entry").first()).toContainText(`Rated ${first(byRating).rating.toFixed(1)} / 10`);
  await page.getByRole("button", { name: "Clear search" }).click();
  await page.getByRole("button", { name: "Filters" }).click();
  await page.locator("#filters").getByRole("button", { name: "Fiction" }).click();
  const fiction = applyFilters(catalogue.notes, { search: "", sort: "rating", tag: "Fiction" });
  await expect(page.getByText(`Results (${fiction.length})`)).toBeVisible();
  await expect(page.locator(".note-title")).toHaveText(fiction.map((note) => note.name));
  await page.getByRole("button", { name: /Remove the tag filter/ }).click();
  await expect(page.locator(".note-title")).toHaveCount(catalogue.notes.length);
});

test("without JavaScript, the write index searches by form submission", async ({ page }) => {
  await page.goto("/write");
  await page.getByPlaceholder("Search...").fill("fear");
  await page.getByPlaceholder("Search...").press("Enter");
  await expect(page.locator(".writing-title").first()).toHaveText("Fear");
});

test("without JavaScript, sign-up works as a form post and answers with the same messages", async ({ page }) => {
  await page.goto("/updates");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Please enter your email.")).toBeVisible();
  await page.getByPlaceholder("Enter your email").fill("bad@email");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Please enter a valid email.")).toBeVisible();
  const email = `nojs-${Date.now()}@example.com`;
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByRole("button", { name: "Send" }).click();
  const thanks = page.getByText("Thank you for your interest :)");
  const askToConfirm = page.locator(".signup-box").getByText(/confirm/i);
  await expect(thanks).toBeVisible();
  await expect(askToConfirm).toBeVisible();
  expect((await askToConfirm.boundingBox())?.y).toBeGreaterThan((await thanks.boundingBox())?.y ?? Infinity);
  // Only a confirmed email counts as used: the person confirms from the mail first.
  await page.goto((await confirmationLink(email)).href);
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "You're subscribed" })).toBeVisible();
  await page.goto("/");
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Sorry, this email was already used.")).toBeVisible();
});

test("without JavaScript, the contact form works as a form post, keeps what was typed on an error, and confirms", async ({
  page,
}) => {
  await page.goto("/contact");
  await page.getByLabel("Email").fill("reader@example.com");
  await page.getByLabel("Message").fill("Hello without JavaScript");
  await page.getByRole("button", { name: "send", exact: true }).click();
  await expect(page.locator(".form-error")).toHaveText("Please enter a subject.");
  await expect(page.getByLabel("Message")).toHaveValue("Hello without JavaScript");
  await page.getByLabel("Subject").fill("No-JS hello");
  await page.getByRole("button", { name: "send", exact: true }).click();
  await expect(page.getByText("I'll email you back shortly :)")).toBeVisible();
  await page.getByRole("button", { name: "Send another email" }).click();
  await expect(page.getByLabel("Subject")).toHaveValue("");
});

test("without JavaScript, a contact message's problem shows once above the button, describing its field", async ({
  page,
}) => {
  await page.goto("/contact");
  await page.getByLabel("Email").fill("reader@example.com");
  await page.getByLabel("Subject").fill("No-JS hello");
  await page.getByRole("button", { name: "send", exact: true }).click();
  await expect(page.getByLabel("Message")).toHaveAccessibleDescription("Please enter a message.");
  await expect(page.locator(".contact-form").getByText("Please enter a message.", { exact: true })).toHaveCount(1);
  await expect(page.locator(".contact-form .form-error")).toHaveText("Please enter a message.");
  await expect(page.getByLabel("Subject")).toHaveValue("No-JS hello");
});
