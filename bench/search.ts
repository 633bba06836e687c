/**
 * The site search at one size of the catalogue (the sample's 268 notes, or the 10,000-note copy):
 * - the index file the build wrote (client/search-index.json): raw, gzip and brotli;
 * - the server's query time: 200 queries made from the catalogue (a title word's first letters, a
 *   title with a typo, an author, three words of a review or an essay), p50 and p99, both the
 *   ranking alone (in process, the index the server builds on its first search) and /search?q=…
 *   over HTTP from the production server, each query new to its cache;
 * - on a throttled phone (4× CPU slowdown, 150 ms round trip, 1.6 Mbps down, nothing cached),
 *   the time from the first keystroke in the header's search field to the first results on
 *   screen, the search module's and the index's download included.
 */
import { readFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { loadCatalogue } from "../catalogue/disk.ts";
import {
  buildSearchIndex,
  SEARCH_INDEX_PATH,
  type SearchDocument,
  searchDocuments,
  searchSite,
} from "../catalogue/site-search.ts";
import { seededRandom } from "../tests/support/random.ts";
import { servedBuildOf } from "./build.ts";
import { kB, median, round1 } from "./stats.ts";

const QUERIES = 200;
const PHONE_RUNS = 3;
const PHONE_QUERY = "habits";
const PHONE_PAGE = "/about";
const SLOW_LINK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
const CPU_SLOWDOWN = 4;

export type SearchFigures = {
  notes: number;
  documents: number;
  index: { rawKB: number; gzipKB: number; brotliKB: number };
  queries: number;
  rankingMs: { p50: number; p99: number };
  httpMs: { p50: number; p99: number };
  phone: { runs: number; firstResultsMs: number; allMs: number[]; cpuSlowdown: number; link: string };
};

const round2 = (value: number) => Math.round(value * 100) / 100;

const percentile = (sorted: readonly number[], fraction: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;

/** A typo a visitor makes: two neighbouring letters swapped. */
function misspelt(word: string, at: number): string {
  if (word.length < 5) return word;
  const i = 1 + (at % (word.length - 2));
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

/** 200 queries a visitor might type, the same on every run. */
export function benchQueries(documents: readonly SearchDocument[]): string[] {
  const { int, pick } = seededRandom(20_251_126);
  const words = (text: string) => text.split(/[^\p{L}\p{N}']+/u).filter((word) => word.length > 2);
  // Each query once, so every request over HTTP is new to the server's cache.
  const queries = new Set<string>();
  for (let tries = 0; queries.size < QUERIES && tries < QUERIES * 50; tries++) {
    const document = pick(documents);
    const title = words(document.title);
    const text = words(document.text);
    switch (tries % 4) {
      case 0:
        if (title.length) queries.add(pick(title).slice(0, 4));
        break;
      case 1:
        if (title.length) queries.add(title.map((word, at) => (at === 0 ? misspelt(word, int(10)) : word)).join(" "));
        break;
      case 2:
        queries.add(document.byline || document.title);
        break;
      default:
        if (text.length > 3) {
          const start = int(text.length - 3);
          queries.add(text.slice(start, start + 3).join(" "));
        } else queries.add(document.title);
    }
  }
  return [...queries];
}

const indexFile = (root: string) => readFileSync(join(servedBuildOf(root), "client", SEARCH_INDEX_PATH));

async function phoneFirstResults(browser: Browser, baseUrl: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", SLOW_LINK);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await page.goto(`${baseUrl}${PHONE_PAGE}`, { timeout: 60_000 });
    await page.waitForFunction(() => document.documentElement.dataset.shell === "ready");
    await page.evaluate(() => {
      const timing = window as unknown as { firstKey?: number; firstResults?: number };
      addEventListener(
        "keydown",
        () => {
          timing.firstKey ??= performance.now();
        },
        { capture: true },
      );
      new MutationObserver(() => {
        if (timing.firstResults === undefined && document.querySelector(".search-dialog .search-results li")) {
          timing.firstResults = performance.now();
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.locator("[data-search-field='header']").focus();
    await page.keyboard.type(PHONE_QUERY, { delay: 120 });
    await page.waitForFunction(
      () => (window as unknown as { firstResults?: number }).firstResults !== undefined,
      undefined,
      { timeout: 60_000 },
    );
    // Awaited here, before the finally below closes the context.
    return await page.evaluate(() => {
      const { firstKey = 0, firstResults = 0 } = window as unknown as { firstKey?: number; firstResults?: number };
      return firstResults - firstKey;
    });
  } finally {
    await context.close();
  }
}

/**
 * One GET on a connection of its own, read to the end: its status and milliseconds. A reused
 * keep-alive connection could meet the server closing it (an idle one is closed after 5 s),
 * which is a client's race, not the search's time.
 */
function timedGet(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers: { "Accept-Encoding": "br" } }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      response.on("error", reject);
    }).on("error", reject);
  });
}

/** `root`: the project whose build the server at `baseUrl` serves. */
export async function measureSearch(
  browser: Browser,
  root: string,
  baseUrl: string,
  log: (message: string) => void,
): Promise<SearchFigures> {
  const catalogue = loadCatalogue(root);
  const documents = searchDocuments(catalogue);
  const file = indexFile(root);
  const queries = benchQueries(documents);

  const index = buildSearchIndex(documents);
  const ranking: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    searchSite(index, query);
    ranking.push(performance.now() - started);
  }
  log(`search: ${queries.length} queries ranked in process, p50 ${round2(median(ranking))} ms`);
  const http: number[] = [];
  for (const query of queries) {
    const url = `${baseUrl}/search?${new URLSearchParams({ q: query })}`;
    const { status, ms } = await timedGet(url);
    if (status !== 200) throw new Error(`${url} answered ${status} after ${Math.round(ms)} ms`);
    http.push(ms);
  }
  log(`search: ${queries.length} queries over HTTP, p50 ${round1(median(http))} ms`);
  const phone: number[] = [];
  for (let run = 0; run < PHONE_RUNS; run++) {
    phone.push(await phoneFirstResults(browser, baseUrl));
    log(`search: phone run ${run + 1}, first results after ${Math.round(phone.at(-1) ?? 0)} ms`);
  }

  const sortedRanking = ranking.sort((a, b) => a - b);
  const sortedHttp = http.sort((a, b) => a - b);
  return {
    notes: catalogue.notes.length,
    documents: documents.length,
    index: {
      rawKB: kB(file.length),
      gzipKB: kB(gzipSync(file, { level: 9 }).length),
      brotliKB: kB(brotliCompressSync(file).length),
    },
    queries: queries.length,
    rankingMs: { p50: round2(percentile(sortedRanking, 0.5)), p99: round2(percentile(sortedRanking, 0.99)) },
    httpMs: { p50: round1(percentile(sortedHttp, 0.5)), p99: round1(percentile(sortedHttp, 0.99)) },
    phone: {
      runs: PHONE_RUNS,
      firstResultsMs: Math.round(median(phone)),
      allMs: phone.map(Math.round),
      cpuSlowdown: CPU_SLOWDOWN,
      link: "150 ms, 1.6 Mbps",
    },
  };
}
