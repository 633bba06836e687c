import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import Database from "better-sqlite3";
import { EMBED_ORIGINS } from "../../catalogue/embeds.ts";
import { applyFilters, type Filters, filtersFromQuery } from "../../catalogue/filters.ts";
import { ratingText } from "../../catalogue/shelves.ts";
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

test("without JavaScript, a note's player opens in place from its summary", async ({ page }) => {
  await page.route(`${EMBED_ORIGINS.podcast}/**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title>" }),
  );
  await page.goto("/notes/atomic-habits");
  const player = page.locator(".embed-podcast iframe");
  await expect(player).toBeHidden();
  await page.getByText("Play the episode here").click();
  await expect(player).toBeVisible();
  await expect(player).toHaveAttribute("title", "Podcast episode: Atomic Habits");
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
  await expect(page.locator(".note-title")).toHaveCount(catalogue.listedNotes.length);
  await page.getByPlaceholder("Search...").fill("habit");
  await page.getByPlaceholder("Search...").press("Enter");
  await expect(page).toHaveURL(/\/notes\?.*q=habit/);
  const habit = applyFilters(catalogue.listedNotes, { search: "habit", sort: "date", tag: "" });
  await expect(page.getByText(`Results (${habit.length})`)).toBeVisible();
  await expect(page.locator(".note-title")).toHaveText(habit.map((note) => note.name));
  await expect(page.getByText("Sorted by Date")).toBeVisible();
  await page.getByRole("button", { name: "Filters" }).click();
  const overlay = page.locator("#filters");
  await expect(overlay).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
  await overlay.getByRole("button", { name: "Rating" }).click();
  const byRating = applyFilters(catalogue.listedNotes, { search: "habit", sort: "rating", tag: "" });
  await expect(page.locator(".note-title")).toHaveText(byRating.map((note) => note.name));
  await expect(page.getByText("Sorted by Rating")).toBeVisible();
  await expect(page.locator(".note-entry").first()).toContainText(`Rated ${ratingText(first(byRating).rating)}`);
  await page.getByRole("button", { name: "Clear search" }).click();
  await page.getByRole("button", { name: "Filters" }).click();
  await page.locator("#filters").getByRole("button", { name: "Fiction" }).click();
  const fiction = applyFilters(catalogue.listedNotes, { search: "", sort: "rating", tag: "Fiction" });
  await expect(page.getByText(`Results (${fiction.length})`)).toBeVisible();
  await expect(page.locator(".note-title")).toHaveText(fiction.map((note) => note.name));
  await page.getByRole("button", { name: /Remove the tag filter/ }).click();
  await expect(page.locator(".note-title")).toHaveCount(catalogue.listedNotes.length);
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

test.describe("filter controls without JavaScript", () => {
  const start: Filters = { search: "a", tag: "Fiction", sort: "rating" };
  const startPath = "/notes?q=a&tag=Fiction&sort=rating";

  /** The URL's query after the control is used from the start state: each name once, none empty, no default sort. */
  async function queryAfter(page: Page, use: () => Promise<void>) {
    await page.goto(startPath);
    await use();
    await page.waitForURL((url) => url.search !== "?q=a&tag=Fiction&sort=rating");
    const params = new URL(page.url()).searchParams;
    const names = [...params.keys()];
    expect(new Set(names).size, page.url()).toBe(names.length);
    expect(
      [...params.values()].filter((value) => value === ""),
      page.url(),
    ).toEqual([]);
    expect(params.get("sort"), page.url()).not.toBe("date");
    return filtersFromQuery(params);
  }

  const overlayButton = (page: Page, name: string) => async () => {
    await page.getByRole("button", { name: "Filters" }).click();
    await page.locator("#filters").getByRole("button", { name, exact: true }).click();
  };

  test("each sort yields a URL with each parameter once, the others kept", async ({ page }) => {
    const sorts = { Date: "date", Title: "title", Author: "author", "Read Time": "time" } as const;
    for (const [label, sort] of Object.entries(sorts)) {
      expect(await queryAfter(page, overlayButton(page, label))).toEqual({ ...start, sort });
    }
  });

  test("each tag, All and the chip yield a URL with each parameter once, the others kept", async ({ page }) => {
    for (const tag of ["All", ...catalogue.tags]) {
      const chosen = tag === "All" || tag === start.tag ? "" : tag;
      expect(await queryAfter(page, overlayButton(page, tag)), tag).toEqual({ ...start, tag: chosen });
    }
    const chip = () => page.getByRole("button", { name: /Remove the tag filter/ }).click();
    expect(await queryAfter(page, chip)).toEqual({ ...start, tag: "" });
  });

  test("clearing the search yields a URL without it, the others kept", async ({ page }) => {
    const clear = () => page.getByRole("button", { name: "Clear search" }).click();
    expect(await queryAfter(page, clear)).toEqual({ ...start, search: "" });
  });
});

test.describe("forms posted without JavaScript", () => {
  function messagesWithSubject(subject: string): number {
    const database = new Database(join(process.env.TEST_DATA_DIR ?? "", "site.db"), { readonly: true });
    try {
      return (
        database.prepare("SELECT count(*) AS rows FROM messages WHERE subject = ?").get(subject) as { rows: number }
      ).rows;
    } finally {
      database.close();
    }
  }

  test("a sent message's page is its own GET: reload, Back and Forward show pages and queue nothing again", async ({
    page,
  }) => {
    const subject = `Once only ${Date.now()}`;
    await page.goto("/contact");
    await page.getByLabel("Email").fill("reader@example.com");
    await page.getByLabel("Subject").fill(subject);
    await page.getByLabel("Message").fill("Sent once.");
    await page.getByRole("button", { name: "send", exact: true }).click();
    await expect(page).toHaveURL(/\/contact\?sent=contact\./);
    const sent = page.getByText("I'll email you back shortly :)");
    await expect(sent).toBeVisible();
    expect(messagesWithSubject(subject)).toBe(1);

    expect((await page.reload())?.status()).toBe(200);
    await expect(sent).toBeVisible();
    expect((await page.goBack())?.status()).toBe(200);
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByLabel("Subject")).toBeVisible();
    expect((await page.goForward())?.status()).toBe(200);
    await expect(sent).toBeVisible();
    expect(messagesWithSubject(subject)).toBe(1);
  });

  test("a sign-up's thank-you page is its own GET, so reloading it posts nothing", async ({ page }) => {
    await page.goto("/updates");
    await page.getByPlaceholder("Enter your email").fill(`reload-${Date.now()}@example.com`);
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page).toHaveURL(/\/updates\?sent=signup\./);
    await expect(page.getByText("Thank you for your interest :)")).toBeVisible();
    const reloaded = await page.reload();
    expect(reloaded?.request().method()).toBe("GET");
    await expect(page.getByText("Thank you for your interest :)")).toBeVisible();
  });
});

test("without JavaScript, the follow form sends a reader to their own server's follow page", async ({ page }) => {
  // The reader's server stands outside this machine: the browser's request to it is answered here.
  const followPages: string[] = [];
  await page.route("https://social.example/**", (route) => {
    followPages.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Follow</title>" });
  });
  for (const path of ["/", "/updates", "/write/fear", "/notes/atomic-habits"]) {
    await page.goto(path);
    await expect(page.locator(".follow-form"), path).toContainText(/Follow @\w+@\S+ on Mastodon/);
  }
  await page.getByLabel(/^Follow @/).fill("@me@social.example");
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(page).toHaveTitle("Follow");
  expect(followPages).toHaveLength(1);
  const follow = new URL(followPages[0] ?? "");
  expect(follow.pathname).toBe("/authorize_interaction");
  expect(follow.searchParams.get("uri")).toMatch(/^\w+@[^@]+$/);

  await page.goto("/follow?server=not%20a%20server");
  await expect(page.getByRole("alert")).toContainText("Please enter the name of your server");
  await expect(page.getByLabel(/^Follow @/)).toHaveValue("not a server");
});
