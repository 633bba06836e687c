/**
 * The fast-typing guarantee at scale: with 10,000 notes, typing fast into the notes search loses no
 * keystroke and the list ends showing the final query. The catalogue is the fixture content filled
 * up with generated notes (bench/generate-notes.ts, as the benchmark does), built once in a
 * temporary copy of the project with only the home page and the notes list prerendered, and served
 * on a port of its own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { buildLargeCopy } from "../../bench/build.ts";
import { freePort } from "../../bench/processes.ts";
import { type RunningServer, startSiteServer } from "../../bench/server.ts";
import { settledSearch } from "../../bench/typing-check.ts";
import { loadCatalogue } from "../../catalogue/disk.ts";
import { applyFilters } from "../../catalogue/filters.ts";
import { waitForReady } from "./helpers.ts";

const NOTES = 10_000;
const projectRoot = process.cwd();
let root = "";
let server: RunningServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(900_000);
  root = mkdtempSync(join(tmpdir(), "site-large-"));
  const port = await freePort();
  await buildLargeCopy({
    projectRoot,
    root,
    total: NOTES,
    siteUrl: `http://127.0.0.1:${port}`,
    from: { content: join(projectRoot, "tests/fixtures/content"), public: join(projectRoot, "tests/fixtures/public") },
    prerender: ["/", "/notes"],
  });
  server = await startSiteServer(root, "large", port, join(root, "data"));
});

test.afterAll(async () => {
  await server?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/**
 * The router asks the server for the root's data on each keystroke (/notes.data?q=…): its answers
 * arrive late and out of step with the keys, as on a real network, so the router's URL updates
 * trail the typing (the race that once cost a key).
 */
async function answerDataLate(page: Page) {
  let step = 0;
  await page.route(/\.data(\?|$)/, async (route) => {
    step = (step * 7 + 3) % 11;
    await new Promise((done) => setTimeout(done, step * 8));
    await route.continue();
  });
}

test("typing fast into the search of 10,000 notes loses no keystroke and the list ends showing the final query", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const catalogue = loadCatalogue(root);
  expect(catalogue.notes).toHaveLength(NOTES);
  const notes = catalogue.listedNotes;
  await answerDataLate(page);
  await page.goto(`${server?.url}/notes`, { timeout: 60_000 });
  await waitForReady(page);
  const box = page.getByPlaceholder("Search...");
  const entries = await page.evaluate(() => history.length);

  // Keys as fast as they can be sent, a correction included; then a steady 30 ms between keys.
  for (const { text, delay, corrections } of [
    { text: "generated book 012x", delay: 0, corrections: 1 },
    { text: "generated book 073", delay: 30, corrections: 0 },
  ]) {
    await box.fill("");
    await box.click();
    await page.keyboard.type(text, { delay });
    for (let press = 0; press < corrections; press++) await page.keyboard.press("Backspace");
    const query = text.slice(0, text.length - corrections);
    expect(await settledSearch(page, 60_000)).toEqual({ box: query, list: query, url: query });
    const expected = applyFilters(notes, { search: query, sort: "date", tag: "" });
    expect(expected.length).toBeGreaterThan(0);
    await expect(page.locator(".note-title")).toHaveText(expected.map((note) => note.name));
    await expect(page.getByText(`Results (${expected.length})`)).toBeVisible();
  }
  // Typing replaced the history entry each time: Back leaves the list.
  expect(await page.evaluate(() => history.length)).toBe(entries);
});
