/** /stats: the figures are the catalogue's, drawn at build time, readable without JavaScript. */
import { expect, type Locator, test } from "@playwright/test";
import { formatDuration, readingStats, topRated } from "../../catalogue/stats.ts";
import { catalogue } from "./fixture-site.ts";
import { expectNoAxeViolations } from "./helpers.ts";

const stats = readingStats(catalogue.readNotes);
const top = topRated(catalogue.readNotes);

/** A chart's text alternative as [label, value] rows. */
const tableRows = (table: Locator) =>
  table
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((row) => [row.querySelector("th")?.textContent ?? "", row.querySelector("td")?.textContent ?? ""]),
    );

/** The labels and values the SVG draws, as [label, value] rows. */
const drawnRows = (figure: Locator) =>
  figure
    .locator("svg g")
    .evaluateAll((groups) =>
      groups.map((group) => [
        group.querySelector(".chart-label")?.textContent ?? "",
        group.querySelector(".chart-value")?.textContent ?? "",
      ]),
    );

const CHARTS: Array<{ caption: string; rows: string[][] }> = [
  { caption: "Books read each year", rows: stats.perYear.map(({ year, count }) => [year, String(count)]) },
  {
    caption: "Average rating of the books read each year",
    rows: stats.averagePerYear.map(({ year, average }) => [year, average.toFixed(1)]),
  },
  { caption: "Notes per rating, highest first", rows: stats.ratings.map(({ label, count }) => [label, String(count)]) },
  {
    caption: `The ${stats.tags.length} most used tags`,
    rows: stats.tags.map(({ tag, count }) => [tag, String(count)]),
  },
];

test.describe("the statistics page", () => {
  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("/stats shows the catalogue's figures, charts and tables with JavaScript off", async ({ page }) => {
      const response = await page.goto("/stats");
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(`${catalogue.site.name} | Reading stats`);
      await expect(page.getByRole("heading", { level: 1, name: "Reading stats" })).toBeVisible();

      await expect(page.locator('[data-stat="total"]')).toHaveText(String(catalogue.readNotes.length));
      await expect(page.locator('[data-stat="average"]')).toHaveText(`${stats.averageRating.toFixed(1)} / 10`);
      await expect(page.locator('[data-stat="time"]')).toContainText(formatDuration(stats.time.totalMinutes));
      await expect(page.locator('[data-stat="time"]')).toContainText(`${stats.time.known} notes`);
      await expect(page.locator('[data-stat="unknown-time"]')).toHaveText(String(stats.time.unknown));
      expect(stats.time.known + stats.time.unknown).toBe(catalogue.readNotes.length);

      for (const { caption, rows } of CHARTS) {
        const table = page.getByRole("table", { name: caption, exact: true });
        expect(await tableRows(table), caption).toEqual(rows);
        const figure = page.locator("figure").filter({ has: table });
        await expect(figure.locator("figcaption")).toContainText(caption);
        const svg = figure.locator("svg");
        await expect(svg).toBeVisible();
        await expect(svg).toHaveAttribute("aria-hidden", "true");
        expect(await drawnRows(figure), caption).toEqual(rows);
      }

      // The longest bar is the largest count.
      const perYear = page
        .locator("figure")
        .filter({ has: page.getByRole("table", { name: "Books read each year", exact: true }) });
      const widths = await perYear
        .locator("rect.chart-bar")
        .evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute("width"))));
      const counts = stats.perYear.map((year) => year.count);
      expect(widths.indexOf(Math.max(...widths))).toBe(counts.indexOf(Math.max(...counts)));

      const topList = page.getByRole("region", { name: "Top-rated books" }).getByRole("listitem");
      await expect(topList).toHaveCount(top.length);
      for (const [index, note] of top.entries()) {
        const item = topList.nth(index);
        await expect(item.getByRole("link")).toHaveText(note.name);
        await expect(item.getByRole("link")).toHaveAttribute("href", note.path);
        await expect(item).toContainText(note.rating.toFixed(1));
      }

      const howIRate = page.getByRole("region", { name: "How I rate" });
      for (const { band, meaning } of catalogue.site.ratingScale.bands) {
        await expect(howIRate.getByText(band, { exact: true })).toBeVisible();
        await expect(howIRate.getByText(meaning, { exact: true })).toBeVisible();
      }
    });
  });

  test("/stats is axe clean and linked from the notes list and from each note page", async ({ page }) => {
    await page.goto("/stats");
    await expectNoAxeViolations(page);
    await page.goto("/notes");
    await expect(page.getByRole("link", { name: "Reading stats" })).toHaveAttribute("href", "/stats");
    await page.goto("/notes/atomic-habits");
    // The line under the link is the owner's blurb for /stats (content/site.yaml).
    await expect(page.locator(".note-footer")).toContainText(`Reading stats: ${catalogue.site.sections.stats.blurb}`);
    await page.getByRole("link", { name: "Reading stats" }).click();
    await expect(page).toHaveURL(/\/stats$/);
    await expect(page.getByRole("heading", { level: 1, name: "Reading stats" })).toBeVisible();
    const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb.getByRole("link", { name: "Notes" })).toHaveAttribute("href", "/notes");
  });

  test("/stats fits a 320 px phone without sideways scrolling", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto("/stats");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
