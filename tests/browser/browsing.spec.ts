import { expect, type Page, test } from "@playwright/test";
import { iconLinkKinds } from "../../app/lib/icon-links.ts";
import { formatMonthYear } from "../../catalogue/dates.ts";
import { EMBED_ORIGINS } from "../../catalogue/embeds.ts";
import { applyFilters } from "../../catalogue/filters.ts";
import { ratingText } from "../../catalogue/shelves.ts";
import { first, last } from "../support/lists.ts";
import { catalogue } from "./fixture-site.ts";
import { expectNoAxeViolations, trackForeignRequests, waitForReady } from "./helpers.ts";

const allNotes = catalogue.listedNotes;
const titles = (page: Page) => page.locator(".note-list .note-title");
/** After a change the list renders its first screenful at once and the rest as it is scrolled to. */
const FIRST_SCREENFUL = 20;
const firstTitles = async (page: Page) => (await titles(page).allTextContents()).slice(0, FIRST_SCREENFUL);
const names = (notes: ReadonlyArray<{ name: string }>) => notes.slice(0, FIRST_SCREENFUL).map((note) => note.name);

async function openNotes(page: Page, query = "") {
  await page.goto(`/notes${query}`);
  await waitForReady(page);
}

async function openFilters(page: Page) {
  await page.getByRole("button", { name: "Filters" }).click();
  const overlay = page.getByRole("dialog", { name: "Order by:" });
  await expect(overlay).toBeVisible();
  return overlay;
}

test("notes lists every note newest first with cover 129x190, title, author and 'Month 20YY'", async ({ page }) => {
  test.setTimeout(90_000);
  const expectLocalOnly = trackForeignRequests(page);
  await openNotes(page);
  await expect(titles(page)).toHaveCount(allNotes.length);
  await expect(titles(page).first()).toHaveText(first(allNotes).name);
  const firstEntry = page.locator(".note-entry").first();
  await expect(firstEntry.locator("img")).toHaveAttribute("width", "129");
  await expect(firstEntry.locator("img")).toHaveAttribute("height", "190");
  expect(await firstEntry.locator("img").evaluate((img) => [img.clientWidth, img.clientHeight])).toEqual([129, 190]);
  await expect(firstEntry).toContainText(first(allNotes).author);
  await expect(firstEntry).toContainText(formatMonthYear(first(allNotes).date));
  await expect(page.getByText(/^Results \(/)).toHaveCount(0);
  await expectNoAxeViolations(page);
  expectLocalOnly();
  // The cover opens the note too: the title's one link lies over it.
  const cover = await firstEntry.locator("img").boundingBox();
  if (!cover) throw new Error("the first cover is not laid out");
  await page.mouse.click(cover.x + cover.width / 2, cover.y + cover.height / 2);
  await expect(page).toHaveURL(first(allNotes).path);
});

test("search matches name, author, category and tag case-insensitively; the clear button empties it", async ({
  page,
}) => {
  await openNotes(page);
  const box = page.getByPlaceholder("Search...");
  for (const query of ["HABITS", "cal newport", "BOOK", "spirituality"]) {
    await box.fill(query);
    const expected = applyFilters(allNotes, { search: query, sort: "date", tag: "" });
    await expect(page.getByText(`Results (${expected.length})`)).toBeVisible();
    await expect.poll(() => firstTitles(page)).toEqual(names(expected));
  }
  await expect(page).toHaveURL(/\?q=spirituality$/);
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(box).toHaveValue("");
  await expect(box).toBeFocused();
  await expect.poll(() => firstTitles(page)).toEqual(names(allNotes));
  await expect(page.getByText(/^Results \(/)).toHaveCount(0);
});

test("a search that matches nothing shows 'No notes'", async ({ page }) => {
  await openNotes(page);
  await page.getByPlaceholder("Search...").fill("zzqqxx no such book");
  await expect(page.getByText("No notes", { exact: true })).toBeVisible();
  await expect(page.getByText("Results (0)")).toBeVisible();
});

test("the overlay 'Order by:' sorts by Date, Title, Author, Rating and closes on choice", async ({ page }) => {
  await openNotes(page);
  for (const [label, key] of [
    ["Title", "title"],
    ["Author", "author"],
    ["Rating", "rating"],
    ["Date", "date"],
  ] as const) {
    const overlay = await openFilters(page);
    await overlay.getByRole("button", { name: label, exact: true }).click();
    await expect(overlay).toBeHidden();
    const expected = applyFilters(allNotes, { search: "", sort: key, tag: "" });
    await expect.poll(() => firstTitles(page)).toEqual(names(expected));
  }
});

test("sorted by Rating, each entry shows its rating; the current sort shows beside the Filters button", async ({
  page,
}) => {
  await openNotes(page);
  await expect(page.getByText("Sorted by Date")).toBeVisible();
  await expect(page.locator(".note-entry").first()).not.toContainText("Rated");
  const overlay = await openFilters(page);
  await overlay.getByRole("button", { name: "Rating" }).click();
  await expect(overlay).toBeHidden();
  await expect(page.getByText("Sorted by Rating")).toBeVisible();
  const expected = applyFilters(allNotes, { search: "", sort: "rating", tag: "" });
  await expect.poll(() => firstTitles(page)).toEqual(names(expected));
  const entries = page.locator(".note-entry");
  for (const [index, note] of expected.slice(0, 5).entries()) {
    await expect(entries.nth(index)).toContainText(`Rated ${ratingText(note.rating)}`);
  }
  await openFilters(page);
  await page.getByRole("dialog", { name: "Order by:" }).getByRole("button", { name: "Read Time" }).click();
  await expect(page.getByText("Sorted by Read Time")).toBeVisible();
  await expect(entries.first()).not.toContainText("Rated");
});

test("sorting by Read Time leaves out unknown times and shows 'N min read'", async ({ page }) => {
  await openNotes(page);
  const overlay = await openFilters(page);
  await overlay.getByRole("button", { name: "Read Time" }).click();
  const expected = applyFilters(allNotes, { search: "", sort: "time", tag: "" });
  expect(expected.length).toBeLessThan(allNotes.length);
  await expect.poll(() => firstTitles(page)).toEqual(names(expected));
  await expect(page.locator(".note-entry").first()).toContainText(`${first(expected).time} min read`);
  // Scrolling to the end renders the rest: every note with a known time, and no other.
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return titles(page).count();
      },
      { timeout: 20_000, intervals: [100] },
    )
    .toBe(expected.length);
  await expect(page).toHaveURL(/sort=time/);
});

test("'Filter by:' has a button per tag and All; a tag narrows the list, All shows every note again", async ({
  page,
}) => {
  await openNotes(page);
  const overlay = await openFilters(page);
  const group = overlay.getByRole("group", { name: "Filter by:" });
  await expect(group.getByRole("button")).toHaveText(["All", ...catalogue.tags]);
  await group.getByRole("button", { name: "Fiction", exact: true }).click();
  const fiction = applyFilters(allNotes, { search: "", sort: "date", tag: "Fiction" });
  await expect(page.getByText(`Results (${fiction.length})`)).toBeVisible();
  await expect.poll(() => firstTitles(page)).toEqual(names(fiction));
  await group.getByRole("button", { name: "All" }).click();
  await expect(page.getByText(/^Results \(/)).toHaveCount(0);
  await expect.poll(() => firstTitles(page)).toEqual(names(allNotes));
});

test("clicking the selected tag again clears it; the selected tag shows as a removable chip", async ({ page }) => {
  await openNotes(page);
  const overlay = await openFilters(page);
  const group = overlay.getByRole("group", { name: "Filter by:" });
  await group.getByRole("button", { name: "Fiction", exact: true }).click();
  await expect(group.getByRole("button", { name: "Fiction", exact: true })).toHaveAttribute("aria-pressed", "true");
  await group.getByRole("button", { name: "Fiction", exact: true }).click();
  await expect(page.getByText(/^Results \(/)).toHaveCount(0);
  await group.getByRole("button", { name: "Philosophy", exact: true }).click();
  await page.keyboard.press("Escape");
  await expect(overlay).toBeHidden();
  const chip = page.getByRole("button", { name: /Philosophy\s*Remove the tag filter/ });
  await expect(chip).toBeVisible();
  const philosophy = applyFilters(allNotes, { search: "", sort: "date", tag: "Philosophy" });
  await expect(page.getByText(`Results (${philosophy.length})`)).toBeVisible();
  await expect.poll(() => firstTitles(page)).toEqual(names(philosophy));
  await chip.click();
  await expect(chip).toBeHidden();
  await expect(page.getByText(/^Results \(/)).toHaveCount(0);
});

test("the overlay is a dialog: page scroll locked, focus inside, Escape closes and focus returns", async ({ page }) => {
  await openNotes(page);
  const button = page.getByRole("button", { name: "Filters" });
  await button.focus();
  await page.keyboard.press("Enter");
  const overlay = page.getByRole("dialog", { name: "Order by:" });
  await expect(overlay).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
  await page.mouse.wheel(0, 1500);
  await page.waitForTimeout(200);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest("dialog")))).toBe(true);
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(overlay).toBeHidden();
  await expect(button).toBeFocused();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
});

test("icon links appear only for non-empty links, each named for screen readers: the note app by its name in site.yaml, the unnamed blog as Medium", async ({
  page,
}) => {
  await openNotes(page);
  const kinds = [
    ["twosLink", "Read on Twos"],
    ["youtubeLink", "Watch the video"],
    ["patreonLink", "Support on Patreon"],
    ["link", "Buy on Amazon"],
    ["podcastLink", "Listen to the podcast"],
    ["mediumLink", "Read on Medium"],
  ] as const;
  for (const note of allNotes.slice(0, 40)) {
    const entry = page.locator(".note-entry").filter({ has: page.locator(`a[href="${note.path}"]`) });
    for (const [field, action] of kinds) {
      const link = entry.getByRole("link", { name: `${action}: ${note.name}` });
      if (note[field]) await expect(link).toHaveAttribute("href", note[field]);
      else await expect(link).toHaveCount(0);
    }
  }
});

test("the URL holds the search: typing adds no history entry; Back and Forward put the URL's search in the box", async ({
  page,
}) => {
  await openNotes(page);
  const box = page.getByPlaceholder("Search...");
  const list = page.locator("[data-query]");
  const entries = await page.evaluate(() => history.length);
  await box.pressSequentially("hab");
  await expect(page).toHaveURL(/\/notes\?q=hab$/);
  await expect(list).toHaveAttribute("data-query", "hab");
  expect(await page.evaluate(() => history.length)).toBe(entries);

  const overlay = await openFilters(page);
  await overlay.getByRole("button", { name: "Rating" }).click();
  await expect(page).toHaveURL(/\/notes\?q=hab&sort=rating$/);
  await box.press("End");
  await box.pressSequentially("it");
  await expect(page).toHaveURL(/\/notes\?q=habit&sort=rating$/);
  expect(await page.evaluate(() => history.length)).toBe(entries + 1);

  await page.goBack();
  await expect(page).toHaveURL(/\/notes\?q=hab$/);
  await expect(box).toHaveValue("hab");
  await expect(list).toHaveAttribute("data-query", "hab");
  await expect(page.getByText("Sorted by Date")).toBeVisible();
  await page.goForward();
  await expect(box).toHaveValue("habit");
  await expect(list).toHaveAttribute("data-query", "habit");
  const expected = applyFilters(allNotes, { search: "habit", sort: "rating", tag: "" });
  await expect.poll(() => firstTitles(page)).toEqual(names(expected));

  // A link to the list (the menu's Notes) starts a new search: the box follows the URL.
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Notes" }).click();
  await expect(page).toHaveURL(/\/notes$/);
  await expect(box).toHaveValue("");
});

test("the lists filter in the browser: typing and sorting ask the server for nothing", async ({ page }) => {
  const dataRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(".data")) dataRequests.push(request.url());
  });
  for (const list of ["/notes", "/write"]) {
    await page.goto(list);
    await waitForReady(page);
    await page.getByPlaceholder("Search...").pressSequentially("the");
    // The router changes the URL once the data of the move (if any) has come.
    await expect(page).toHaveURL(new RegExp(`${list}\\?q=the$`));
  }
  await openNotes(page);
  const overlay = await openFilters(page);
  await overlay.getByRole("button", { name: "Rating" }).click();
  await expect(page).toHaveURL(/sort=rating/);
  expect(dataRequests).toEqual([]);
});

test("a keystroke's list is on the page before the keystroke's task ends", async ({ page }) => {
  await openNotes(page);
  const search = "habit";
  const expected = applyFilters(allNotes, { search, sort: "date", tag: "" }).slice(0, 3);
  // Type one key and read the list in the same task: nothing may wait for a later task or frame.
  const shown = await page.evaluate((search) => {
    const box = document.querySelector<HTMLInputElement>('.search-bar input[name="q"]');
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    if (!box || !setValue) throw new Error("no search box");
    setValue.call(box, search);
    box.dispatchEvent(new Event("input", { bubbles: true }));
    const titles = [...document.querySelectorAll(".note-title")].slice(0, 3).map((title) => title.textContent);
    return { query: document.querySelector<HTMLElement>("[data-query]")?.dataset.query, titles };
  }, search);
  expect(shown).toEqual({ query: search, titles: expected.map((note) => note.name) });
  // The URL follows as the router finishes the move.
  await expect(page).toHaveURL(`/notes?q=${search}`);
});

test("a note's tags link to the notes list filtered by each tag", async ({ page }) => {
  const note = allNotes.find((book) => book.tags.length > 1) ?? first(allNotes);
  const tag = last(note.tags);
  await page.goto(note.path);
  await waitForReady(page);
  const tags = page.getByRole("list", { name: "Tags" });
  await expect(tags.getByRole("link")).toHaveText([...note.tags]);
  await tags.getByRole("link", { name: tag, exact: true }).click();
  await expect(page).toHaveURL(`/notes?tag=${encodeURIComponent(tag).replace(/%20/g, "+")}`);
  const tagged = applyFilters(allNotes, { search: "", sort: "date", tag });
  await expect(page.getByText(`Results (${tagged.length})`)).toBeVisible();
  await expect(page.getByRole("button", { name: new RegExp(`${tag}\\s*Remove the tag filter`) })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("each icon link of the notes list shows its label on hover and on keyboard focus", async ({ page }) => {
  await openNotes(page);
  const kinds = iconLinkKinds({ noteApp: catalogue.site.noteApp, blog: catalogue.site.blog });
  const note = allNotes.find((item) => kinds.some((kind) => item[kind.field]));
  const firstKind = kinds.find((kind) => note?.[kind.field]);
  const entry = page.locator(".note-entry").filter({ has: page.locator(`h2 a[href="${note?.path}"]`) });
  const link = entry.locator(".link-icons a").first();
  const label = link.locator(".icon-label");
  await expect(label).toHaveText(firstKind?.action ?? "a note with an icon link");
  // The icon is drawn by the stylesheet: a 22px mask over the link's colour.
  const icon = await link.evaluate((element) => {
    const style = getComputedStyle(element, "::before");
    return { width: style.width, mask: style.maskImage };
  });
  expect(icon).toEqual({ width: "22px", mask: expect.stringContaining("data:image/svg+xml") });
  await expect(label).toBeHidden();
  await link.hover();
  await expect(label).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(label).toBeHidden();
  await entry.locator("h2 a").focus();
  await page.keyboard.press("Tab");
  await expect(link).toBeFocused();
  await expect(label).toBeVisible();
  await expectNoAxeViolations(page);
});

test("filters start from defaults, live in the URL, survive a reload and Back restores the previous filter", async ({
  page,
}) => {
  await openNotes(page, "?tag=Fiction&sort=rating&q=the");
  const expected = applyFilters(allNotes, { search: "the", sort: "rating", tag: "Fiction" });
  await expect(page.getByPlaceholder("Search...")).toHaveValue("the");
  await expect(titles(page)).toHaveText(expected.map((note) => note.name));
  await page.goto("/notes");
  await waitForReady(page);
  await expect(titles(page)).toHaveCount(allNotes.length);
  await expect(page.getByPlaceholder("Search...")).toHaveValue("");
  const overlay = await openFilters(page);
  await overlay.getByRole("button", { name: "Biography" }).click();
  await overlay.getByRole("button", { name: "Psychology" }).click();
  await expect(page).toHaveURL(/tag=Psychology/);
  await page.goBack();
  await expect(page).toHaveURL(/tag=Biography/);
  const biographies = applyFilters(allNotes, { search: "", sort: "date", tag: "Biography" });
  await expect(page.getByText(`Results (${biographies.length})`)).toBeVisible();
});

test("the write index: title 'Write', a description, the note about both platforms with links", async ({ page }) => {
  await page.goto("/write");
  await expect(page.getByRole("heading", { level: 1, name: "Write" })).toBeVisible();
  // The owner's words from content/site.yaml.
  const intro = catalogue.site.sections.write.intro.replace(/<[^>]+>/g, "").trim();
  await expect(page.locator(".lede")).toHaveText(intro);
  const lede = page.locator(".lede");
  await expect(lede.getByRole("link", { name: "Twos", exact: true })).toHaveAttribute(
    "href",
    "https://www.example.com/twos",
  );
  await expect(lede.getByRole("link", { name: "Medium", exact: true })).toHaveAttribute(
    "href",
    "https://medium.com/@test-owner",
  );
  await expectNoAxeViolations(page);
});

test("the write index has the search bar without the filters button", async ({ page }) => {
  await page.goto("/write");
  await waitForReady(page);
  await expect(page.getByPlaceholder("Search...")).toBeVisible();
  await expect(page.getByRole("button", { name: "Filters" })).toHaveCount(0);
  await page.getByPlaceholder("Search...").fill("fear");
  await expect(page.locator(".writing-title").first()).toHaveText("Fear");
});

test("the writings are listed newest first, with an empty-state message when nothing matches", async ({ page }) => {
  await page.goto("/write");
  await waitForReady(page);
  await expect(page.locator(".writing-title")).toHaveText(catalogue.writings.map((writing) => writing.name));
  const dates = catalogue.writings.map((writing) => writing.date);
  expect([...dates].sort().reverse()).toEqual(dates);
  await page.getByPlaceholder("Search...").fill("no essay has this title");
  await expect(page.getByText("No writings match your search.")).toBeVisible();
});

test.describe("each writing on the write index", () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: a 100x100 photo linking to it or a square in its place, a title, a date, an excerpt and the author as quiet metadata`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/write");
      const lefts = new Set<number>();
      for (const writing of catalogue.writings) {
        const entry = page.locator(".writing-entry").filter({ has: page.locator(`h2 a[href="${writing.path}"]`) });
        await expect(entry.locator(".meta-line time")).toHaveText(formatMonthYear(writing.date));
        await expect(entry.locator(".writing-excerpt")).toHaveText(writing.excerpt);
        // The author is every essay's owner: there for screen readers and machines, not repeated on screen.
        const author = entry.getByText(`by ${catalogue.site.name}`);
        await expect(author).toHaveCount(1);
        expect(await author.evaluate((element) => element.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
        const photo = entry.locator(`a[href="${writing.path}"] img`);
        if (writing.photo) {
          await expect(photo).toHaveAttribute("width", "100");
          await expect(photo).toHaveAttribute("height", "100");
        } else await expect(photo).toHaveCount(0);
        const square = await entry.locator(".writing-thumb").boundingBox();
        expect([square?.width, square?.height]).toEqual([100, 100]);
        const title = await entry.locator(".writing-title").boundingBox();
        lefts.add(Math.round(title?.x ?? -1));
      }
      // With a photo or without, every title starts at the same place.
      expect(lefts.size).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    });
  }

  test("each link shows its label beside its icon, without hover", async ({ page }) => {
    await page.goto("/write");
    const writing = catalogue.writings.find((item) => item.twosLink) ?? first(catalogue.writings);
    const entry = page.locator(".writing-entry").filter({ has: page.locator(`h2 a[href="${writing.path}"]`) });
    const link = entry.getByRole("link", { name: `Read on Twos: ${writing.name}` });
    await expect(link).toBeVisible();
    await expect(link.locator(".icon-label")).toBeVisible();
    await expect(link.locator(".icon-label")).toHaveCSS("opacity", "1");
    expect(await link.evaluate((element) => element.getBoundingClientRect().width)).toBeGreaterThan(80);
  });
});
test("each writing's optional icon links (note app, watch, support, buy, listen, Medium) open in a new tab", async ({
  page,
}) => {
  await page.goto("/write");
  const actions = {
    twosLink: "Read on Twos",
    youtubeLink: "Watch the video",
    patreonLink: "Support on Patreon",
    link: "Buy on Amazon",
    podcastLink: "Listen to the podcast",
    mediumLink: "Read on Medium",
  } as const;
  for (const writing of catalogue.writings) {
    const entry = page.locator(".writing-entry").filter({ has: page.locator(`h2 a[href="${writing.path}"]`) });
    for (const [field, action] of Object.entries(actions) as Array<[keyof typeof actions, string]>) {
      const link = entry.getByRole("link", { name: `${action}: ${writing.name}` });
      if (!writing[field]) {
        await expect(link).toHaveCount(0);
        continue;
      }
      await expect(link).toHaveAttribute("href", writing[field]);
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", "noopener");
    }
  }
});

/** The players answer slowly from a route this test controls, so the order of their requests shows. */
async function serveSlowPlayers(page: Page, delayMs: number) {
  const events: string[] = [];
  for (const origin of Object.values(EMBED_ORIGINS)) {
    await page.route(`${origin}/**`, async (route) => {
      // The list's probe of the host (its icon) is no player.
      if (route.request().resourceType() !== "document") return route.fulfill({ status: 204 });
      const id = new URL(route.request().url()).pathname;
      events.push(`start ${id}`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      events.push(`end ${id}`);
      await route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title>" });
    });
  }
  return events;
}

for (const [path, kind, items, size, placeholder] of [
  ["/podcast", "podcast", catalogue.withPodcast, [343, 102], 118],
  ["/videos", "video", catalogue.withVideo, [288, 160], 209],
] as const) {
  test(`${path}: newest release first, ${size.join("x")} players in ${placeholder} px placeholders, one at a time`, async ({
    page,
  }) => {
    const events = await serveSlowPlayers(page, 300);
    await page.setViewportSize({ width: 400, height: 900 });
    await page.goto(path);
    await waitForReady(page);
    const embed = (note: (typeof items)[number]) => (kind === "podcast" ? note.podcastEmbed : note.youtubeEmbed);
    await expect(page.locator(".embed-title")).toHaveText(items.map((note) => note.name));
    const dates = items.map((note) => note.releaseDate);
    expect([...dates].sort().reverse()).toEqual(dates);
    const placeholders = page.locator(`.embed-${kind}`);
    expect(await placeholders.first().evaluate((element) => element.getBoundingClientRect().height)).toBe(placeholder);
    // Each entry links to the host's own page, player or not.
    await expect(page.locator(".embed-list li a[rel=noopener]")).toHaveCount(items.length);
    await expect(page.locator("iframe").first()).toBeAttached();
    const frame = page.locator("iframe").first();
    await expect(frame).toHaveAttribute("src", embed(first(items)));
    await expect(frame).toHaveAttribute("title", new RegExp(first(items).name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    expect(await frame.evaluate((element) => [element.clientWidth, element.clientHeight])).toEqual(size);
    // Every player starts only after the previous one has finished.
    await expect.poll(() => events.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    const sequence = events.slice(0, 4).map((event) => event.split(" ")[0]);
    expect(sequence).toEqual(["start", "end", "start", "end"]);
    // Players far below the viewport wait for the visitor; scrolling down lets them start, in order.
    const near = await page
      .locator(".embed-list > li")
      .evaluateAll(
        (entries) => entries.filter((entry) => entry.getBoundingClientRect().top < window.innerHeight * 1.5).length,
      );
    if (near < items.length) {
      await expect(page.locator("iframe")).toHaveCount(near, { timeout: 15_000 });
      await page.waitForTimeout(1_000);
      await expect(page.locator("iframe")).toHaveCount(near);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    }
    await expect(page.locator("iframe")).toHaveCount(items.length, { timeout: 30_000 });
    await expect.poll(() => events.length).toBe(items.length * 2);
    expect(events.map((event) => event.split(" ")[0])).toEqual(
      Array.from({ length: items.length }, () => ["start", "end"]).flat(),
    );
    await expectNoAxeViolations(page);
  });
}

test("podcast players are 343x102 in 118 px placeholders, video players 288x160 in 209 px", async ({ page }) => {
  await serveSlowPlayers(page, 0);
  for (const [path, kind, size, placeholder] of [
    ["/podcast", "podcast", [343, 102], 118],
    ["/videos", "video", [288, 160], 209],
  ] as const) {
    await page.goto(path);
    const box = page.locator(`.embed-${kind}`).first();
    expect(await box.evaluate((element) => element.getBoundingClientRect().height)).toBe(placeholder);
    const frame = box.locator("iframe");
    await expect(frame).toBeAttached();
    expect(await frame.evaluate((element) => [element.clientWidth, element.clientHeight])).toEqual(size);
  }
});

for (const [path, items] of [
  ["/podcast", catalogue.withPodcast],
  ["/videos", catalogue.withVideo],
] as const) {
  test(`${path} with the players' host out of reach is a list of titles, dates and links, with no empty boxes`, async ({
    page,
  }) => {
    for (const origin of Object.values(EMBED_ORIGINS)) {
      await page.route(`${origin}/**`, (route) => route.abort("internetdisconnected"));
    }
    await page.goto(path);
    await waitForReady(page);
    await expect(page.locator(".embed")).toHaveCount(0);
    const entries = page.locator(".embed-list > li");
    await expect(entries).toHaveCount(items.length);
    for (const [index, note] of items.entries()) {
      const entry = entries.nth(index);
      await expect(entry.getByRole("heading", { name: note.name })).toBeVisible();
      await expect(entry.locator("time")).toHaveAttribute("dateTime", note.releaseDate);
      await expect(entry.locator("a[rel=noopener]")).toHaveAttribute(
        "href",
        /^https:\/\/(open\.spotify|www\.youtube)\.com\//,
      );
      // The cover and the words: no row below them held open for a player.
      const height = await entry.evaluate((element) => {
        const tallest = Math.max(...[...element.children].map((child) => child.getBoundingClientRect().height));
        return element.getBoundingClientRect().height - tallest;
      });
      expect(height).toBeLessThanOrEqual(1);
    }
    await expect(page.locator("iframe")).toHaveCount(0);
  });
}

for (const [path, kind, items, source] of [
  ["/podcast", "podcast", catalogue.withPodcast, "Listen on Spotify"],
  ["/videos", "videos", catalogue.withVideo, "Watch on YouTube"],
] as const) {
  test(`${path} opens with the owner's introduction, then each entry's cover, title, date, source and opening words`, async ({
    page,
  }) => {
    await page.goto(path);
    const intro = catalogue.site.sections[kind].intro?.replace(/<[^>]+>/g, "").trim();
    expect(intro).toBeTruthy();
    await expect(page.locator(".lede")).toHaveText(intro ?? "");
    const entries = page.locator(".embed-list > li");
    for (const [index, note] of items.entries()) {
      const entry = entries.nth(index);
      const cover = entry.locator("img");
      await expect(cover).toHaveAttribute("src", note.photo);
      expect(await cover.evaluate((img) => [img.clientWidth, img.clientHeight])).toEqual([64, 94]);
      await expect(entry.getByRole("link", { name: note.name, exact: true })).toHaveAttribute("href", note.path);
      await expect(entry.locator("time")).toHaveText(formatMonthYear(note.releaseDate));
      await expect(entry.getByRole("link", { name: `${source}: ${note.name}` })).toContainText(source);
      if (note.excerpt) await expect(entry.locator(".embed-description")).toHaveText(note.excerpt);
      else await expect(entry.locator(".embed-description")).toHaveCount(0);
    }
    expect(items.some((note) => note.excerpt)).toBe(true);
    await expectNoAxeViolations(page);
  });
}

test.describe("with the players' host blocked", () => {
  // A known race, kept visible as "flaky" in the report: the head's probe of the host is a fetch, and
  // with the stylesheet cached the first paint can come before the blocked request fails.
  test.describe.configure({ retries: 2 });
  for (const path of ["/podcast", "/videos"]) {
    test(`${path} with the players' host blocked in the browser never moves: no box is painted for a player`, async ({
      page,
    }) => {
      // As a blocker (or Lighthouse) blocks a host: the request fails inside the browser, at once.
      const browser = await page.context().newCDPSession(page);
      await browser.send("Network.enable");
      await browser.send("Network.setBlockedURLs", {
        urls: Object.values(EMBED_ORIGINS).map((origin) => `${origin}/*`),
      });
      await page.addInitScript(() => {
        const record = window as unknown as { shifted: number };
        record.shifted = 0;
        new PerformanceObserver((entries) => {
          for (const entry of entries.getEntries()) record.shifted += (entry as unknown as { value: number }).value;
        }).observe({ type: "layout-shift", buffered: true });
      });
      await page.goto(path);
      await waitForReady(page);
      await expect(page.locator(".embed")).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { shifted: number }).shifted)).toBe(0);
    });
  }
});

test("a player that never loads holds up the next one for 10 s at most", async ({ page }) => {
  test.setTimeout(40_000);
  await page.route(`${EMBED_ORIGINS.podcast}/**`, () => {
    // Never answered: the first player hangs.
  });
  await page.goto("/podcast");
  await waitForReady(page);
  await expect(page.locator("iframe")).toHaveCount(1);
  await page.waitForTimeout(8_000);
  await expect(page.locator("iframe")).toHaveCount(1);
  await expect(page.locator("iframe")).toHaveCount(2, { timeout: 5_000 });
});
