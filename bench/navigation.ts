/**
 * Opening the next page from a page with React, on a slow phone link (Chromium's network
 * emulation: 150 ms round trip, 1.6 Mbps down): from the click to the first frame whose heading
 * is the link's text. Once with the click as soon as the page has hydrated, once after the
 * pointer rested on the link for a second, the time `prefetch="intent"` has to fetch the next
 * page's code and data. Each run in a fresh browser context, so nothing is cached from before.
 */
import type { Browser } from "playwright-core";
import { median } from "./stats.ts";

const SLOW_LINK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
const RUNS = 3;
const HOVER_MS = 1000;

const JOURNEYS = [
  { journey: "/ → /contact (footer)", from: "/", link: 'footer a[href="/contact"]' },
  { journey: "/notes → a note", from: "/notes", link: ".note-list .note-title a" },
] as const;

export type NavigationFigures = { journey: string; runs: number; straightMs: number; afterHoverMs: number };

async function openNext(browser: Browser, baseUrl: string, run: number, hover: boolean, from: string, link: string) {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}${from}`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    const network = await context.newCDPSession(page);
    await network.send("Network.emulateNetworkConditions", SLOW_LINK);
    // A different entry each run where there are several, as a visitor opens different notes.
    const entries = page.locator(link);
    const target = entries.nth(run % (await entries.count()));
    const title = (await target.textContent())?.trim() ?? "";
    if (hover) {
      await target.hover();
      await page.waitForTimeout(HOVER_MS);
    }
    const clickedAt = Date.now();
    await target.click();
    await page.waitForFunction((title) => document.querySelector("h1")?.textContent?.trim() === title, title, {
      polling: "raf",
      timeout: 30_000,
    });
    return Date.now() - clickedAt;
  } finally {
    await context.close();
  }
}

export async function measureNavigation(browser: Browser, baseUrl: string): Promise<NavigationFigures[]> {
  const figures: NavigationFigures[] = [];
  for (const { journey, from, link } of JOURNEYS) {
    const straight: number[] = [];
    const afterHover: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      straight.push(await openNext(browser, baseUrl, run, false, from, link));
      afterHover.push(await openNext(browser, baseUrl, run, true, from, link));
    }
    figures.push({ journey, runs: RUNS, straightMs: median(straight), afterHoverMs: median(afterHover) });
  }
  return figures;
}
