/**
 * The reading life on the fixture site: the book being read now on /now and the home page, the
 * shelves, a year in books, quotes (anchor, page, card, feed), the history of a re-read book and
 * the essays that mention a note. Every new page is prerendered and ships no module script.
 */
import { expect, type Page, test } from "@playwright/test";
import { XMLParser } from "fast-xml-parser";
import { formatDuration, meanRating, readingTime } from "../../catalogue/stats.ts";
import { catalogue } from "./fixture-site.ts";
import { expectNoAxeViolations, waitForReady } from "./helpers.ts";

const NEW_PAGES = ["/notes/shelves", "/stats/2024", "/quotes", "/quotes/the-glass-orchard-1"];

async function moduleScripts(page: Page): Promise<number> {
  return page.locator('script[type="module"], link[rel="modulepreload"]').count();
}

test("the book on the reading shelf shows on /now and on the home page, from its note alone", async ({ page }) => {
  const [reading] = catalogue.shelves.reading;
  expect(reading?.slug).toBe("the-lantern-keeper");
  for (const path of ["/now", "/"]) {
    await page.goto(path);
    const section = page.getByRole("region", { name: "Reading now" });
    await expect(section.getByRole("link", { name: "The Lantern Keeper" })).toHaveAttribute(
      "href",
      "/notes/the-lantern-keeper",
    );
    await expect(section).toContainText("Odile Varga");
    await expect(section).toContainText("Started May 2024");
    await expect(section.locator("img")).toHaveAttribute("src", reading?.photo ?? "");
  }
  // The fixture's only goal is 2024's: /now shows the goal of the year it is built in, never an earlier one.
  await page.goto("/now");
  await expect(page.locator('[data-stat="goal"]')).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("the shelves page lists the books reading now, wanted and given up", async ({ page }) => {
  await page.goto("/notes/shelves");
  await expect(page.getByRole("heading", { level: 1, name: "Shelves" })).toBeVisible();
  const shelf = (name: string) => page.getByRole("list", { name });
  await expect(shelf("Reading now").getByRole("link")).toHaveText(["The Lantern Keeper"]);
  await expect(shelf("Want to read").getByRole("link")).toHaveText(["Salt and Iron"]);
  await expect(shelf("Want to read")).toContainText("Added March 2024");
  await expect(shelf("Did not finish").getByRole("link")).toHaveText(["A Winter Almanac"]);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Notes");
  await expectNoAxeViolations(page);
});

test("the notes list leaves out books reading and wanted, and marks a book given up", async ({ page }) => {
  await page.goto("/notes");
  await waitForReady(page);
  const titles = page.locator(".note-title");
  await expect(titles).toHaveCount(catalogue.listedNotes.length);
  await expect(titles.filter({ hasText: "The Lantern Keeper" })).toHaveCount(0);
  await expect(titles.filter({ hasText: "Salt and Iron" })).toHaveCount(0);
  await expect(page.locator(".note-entry", { hasText: "A Winter Almanac" })).toContainText("Did not finish");
  // A note on a shelf still has its page, with no rating.
  await page.goto("/notes/salt-and-iron");
  await expect(page.getByRole("link", { name: "Want to read" })).toHaveAttribute("href", "/notes/shelves");
  await expect(page.getByText("/ 10")).toHaveCount(0);
});

test("a year in books counts the books read that year and averages their ratings", async ({ page }) => {
  const read = catalogue.readNotes.filter((note) => note.date.startsWith("2024-"));
  expect(read.map((note) => note.slug).sort()).toEqual(["deep-work", "the-glass-orchard-2"]);
  await page.goto("/stats/2024");
  await expect(page.getByRole("heading", { level: 1, name: "2024 in books" })).toBeVisible();
  await expect(page.locator('[data-stat="count"]')).toHaveText(String(read.length));
  await expect(page.locator('[data-stat="average"]')).toHaveText(
    `${meanRating(read.map((note) => note.rating)).toFixed(1)} / 10`,
  );
  await expect(page.locator('[data-stat="average"]')).toHaveText("6.2 / 10");
  await expect(page.locator('[data-stat="goal"]')).toHaveText("2 of 4 books");
  // Reading order: oldest first.
  expect(
    await page.locator(".year-covers a").evaluateAll((links) => links.map((link) => link.getAttribute("href"))),
  ).toEqual(["/notes/deep-work", "/notes/the-glass-orchard-2"]);
  await expect(page.getByRole("list", { name: "Re-reads" }).getByRole("link")).toHaveText(["The Glass Orchard"]);
  await expect(page.getByRole("list", { name: "Did not finish" }).getByRole("link")).toHaveText(["A Winter Almanac"]);
  const years = page.getByRole("navigation", { name: "Other years" });
  await expect(years.getByRole("link", { name: "Year before 2022" })).toHaveAttribute("href", "/stats/2022");
  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
  const list = jsonLd.map((text) => JSON.parse(text)).find((data) => data["@type"] === "ItemList");
  expect(list.itemListElement.map((entry: { item: { "@type": string; name: string } }) => entry.item)).toMatchObject([
    { "@type": "Book", name: "Deep Work" },
    { "@type": "Book", name: "The Glass Orchard" },
  ]);
  const card = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(card).toMatch(/\/cards\/stats\/2024\.png$/);
  await expectNoAxeViolations(page);

  await page.goto("/stats");
  await expect(
    page.getByRole("navigation", { name: "Year in books" }).getByRole("link", { name: "2024" }),
  ).toHaveAttribute("href", "/stats/2024");
});

test("a year's total read time counts only the known times, and a year with none known shows no total", async ({
  page,
}) => {
  const timeOf = (year: string) => readingTime(catalogue.readNotes.filter((note) => note.date.startsWith(`${year}-`)));
  expect(timeOf("2022")).toEqual({ totalMinutes: 0, known: 0, unknown: 1 });
  await page.goto("/stats/2022");
  await expect(page.locator('[data-stat="time"]')).toHaveCount(0);
  await expect(page.locator('[data-stat="unknown-time"]')).toHaveText("1");
  await expect(page.getByText(/\b0 minutes/)).toHaveCount(0);

  expect(timeOf("2024")).toMatchObject({ known: 2, unknown: 0 });
  await page.goto("/stats/2024");
  await expect(page.locator('[data-stat="time"]')).toHaveText(formatDuration(timeOf("2024").totalMinutes));
  await expect(page.locator('[data-stat="unknown-time"]')).toHaveCount(0);
});

test("a quote has its anchor on the note, its own page, a 1200x630 card and an entry in the quotes feed", async ({
  page,
  request,
}) => {
  // Five pages, two cards and a feed on a busy machine.
  test.setTimeout(90_000);
  await page.goto("/notes/the-glass-orchard");
  const figure = page.locator("figure#quote-1");
  await expect(figure).toContainText("Every orchard keeps one tree for the birds, and calls it a mistake.");
  await expect(figure).toContainText("— p. 12");
  await figure.getByRole("link", { name: "Share this quote" }).click();
  await expect(page).toHaveURL(/\/quotes\/the-glass-orchard-1$/);
  await expect(page.locator("blockquote")).toHaveText(
    "Every orchard keeps one tree for the birds, and calls it a mistake.",
  );
  await expect(page.getByRole("link", { name: "In my note on The Glass Orchard" })).toHaveAttribute(
    "href",
    "/notes/the-glass-orchard#quote-1",
  );
  const jsonLd = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((text) =>
    JSON.parse(text),
  );
  expect(jsonLd.find((data) => data["@type"] === "Quotation")).toMatchObject({
    text: "Every orchard keeps one tree for the birds, and calls it a mistake.",
    isPartOf: { "@type": "Book", name: "The Glass Orchard" },
  });
  await expectNoAxeViolations(page);

  const cardUrl = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(cardUrl).toMatch(/\/cards\/quotes\/the-glass-orchard-1\.png$/);
  for (const path of ["/cards/quotes/the-glass-orchard-1.png", "/cards/quotes/the-glass-orchard-2-1.png"]) {
    const card = await request.get(path);
    expect(card.headers()["content-type"]).toBe("image/png");
    const png = await card.body();
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  }

  const feed = await request.get("/feeds/quotes.atom");
  expect(feed.headers()["content-type"]).toContain("application/atom+xml");
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(await feed.text());
  const entries = [parsed.feed.entry].flat() as { id: string; content: { "#text": string } }[];
  expect(entries.map((entry) => new URL(entry.id).pathname)).toEqual(catalogue.quotes.map((quote) => quote.path));
  const entry = entries.find((candidate) => candidate.id.endsWith("/quotes/the-glass-orchard-1"));
  expect(entry?.content["#text"]).toContain("Every orchard keeps one tree for the birds, and calls it a mistake.");

  await page.goto("/quotes");
  await expect(page.locator(".quote-list > li")).toHaveCount(catalogue.quotes.length);
  await expectNoAxeViolations(page);
});

test("the quotes page sets each quote first and larger than its quiet attribution, with one small share link", async ({
  page,
}) => {
  await page.goto("/quotes");
  const figures = page.locator(".quote-list .quote");
  await expect(figures).toHaveCount(catalogue.quotes.length);
  for (const [index, quote] of catalogue.quotes.entries()) {
    const figure = figures.nth(index);
    const sizes = await figure.evaluate((element) => {
      const size = (selector: string) =>
        Number.parseFloat(getComputedStyle(element.querySelector(selector) ?? element).fontSize);
      return { first: element.firstElementChild?.tagName, words: size("blockquote"), attribution: size("figcaption") };
    });
    expect(sizes.first).toBe("BLOCKQUOTE");
    expect(sizes.words / sizes.attribution).toBeGreaterThanOrEqual(1.2);
    await expect(figure.getByRole("link", { name: "Share this quote" })).toHaveAttribute("href", quote.path);
    await expect(figure.getByRole("link", { name: quote.note.name, exact: true })).toHaveAttribute(
      "href",
      quote.note.path,
    );
  }
  // "Share this quote" is the link's name, not a line repeated under every quote.
  await expect(page.getByText("Share this quote")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("every reading of a re-read book shows the whole history, with links to the others", async ({ page }) => {
  for (const slug of ["the-glass-orchard", "the-glass-orchard-2"]) {
    await page.goto(`/notes/${slug}`);
    const history = page.getByRole("region", { name: "Readings of this book" });
    await expect(history).toContainText("Read 2 times — 6.2 (April 2016) → 8.9 (August 2024)");
    const other = slug === "the-glass-orchard" ? "the-glass-orchard-2" : "the-glass-orchard";
    await expect(history.getByRole("link")).toHaveAttribute("href", `/notes/${other}`);
  }
  await page.goto("/stats");
  const changed = page.getByRole("region", { name: "Books I changed my mind about" });
  await expect(changed.getByRole("listitem")).toHaveCount(1);
  await expect(changed).toContainText("The Glass Orchard");
  await expect(changed).toContainText("6.2 → 8.9");
});

test("a note lists the essays that link to it", async ({ page }) => {
  for (const slug of ["the-glass-orchard-2", "deep-work"]) {
    await page.goto(`/notes/${slug}`);
    const mentioned = page.getByRole("region", { name: "Mentioned in" });
    await expect(mentioned.getByRole("link", { name: "Why Me?" })).toHaveAttribute("href", "/write/why-me");
  }
  await page.goto("/notes/germinal");
  await expect(page.getByRole("region", { name: "Mentioned in" })).toHaveCount(0);
});

test("the new pages are prerendered, in the sitemap, and load no module script", async ({ page, request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  for (const path of NEW_PAGES) {
    expect(sitemap, path).toContain(`${path}</loc>`);
    await page.goto(path);
    await waitForReady(page);
    expect({ path, modules: await moduleScripts(page) }).toEqual({ path, modules: 0 });
  }
});
