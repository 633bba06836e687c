/**
 * Lighthouse 12 (mobile, default simulated throttling) on each page, in passes over all pages so
 * that every page gets the same number of runs; the median of the runs per figure. One Chromium
 * serves every run and is relaunched after a failure. Runs are sequential.
 */
import { type LaunchedChrome, launch } from "chrome-launcher";
import lighthouse, { type Flags } from "lighthouse";
import { CHROMIUM_ARGS, findChromium } from "../tests/support/chromium.ts";
import { onExit, withTimeout } from "./processes.ts";
import { median } from "./stats.ts";

const chromium = findChromium();
if (!chromium) throw new Error("Chromium not found: install Debian's chromium or set CHROMIUM_PATH");
export const CHROME_PATH = chromium;
export const CHROME_FLAGS = ["--headless=new", ...CHROMIUM_ARGS.filter((flag) => !flag.startsWith("--headless"))];
/** The players' hosts: unreachable here, so their requests are blocked (as an extension would). */
export const BLOCKED_URL_PATTERNS = ["*open.spotify.com*", "*youtube-nocookie.com*"];
/** Audits of weight 0 in every category (they do not change a score) that cost seconds per run. */
export const SKIPPED_AUDITS = ["bf-cache", "screenshot-thumbnails", "final-screenshot"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const RUN_TIMEOUT_MS = 120_000;

export type LighthouseRun = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Everything the page transferred, compressed as served (Lighthouse's total-byte-weight). */
  transferBytes: number;
  /** Audits of the four categories that scored below 1, for the report. */
  failing: string[];
  /** What errors-in-console found (source: message). */
  consoleErrors: string[];
};

export type LighthousePage = {
  path: string;
  runs: number;
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  fcpMs: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  transferBytes: number | null;
  /** Audits below a full score in at least one run (id: how many runs). */
  failing: Record<string, number>;
  /** The browser console's errors in any run, each once. */
  consoleErrors: string[];
  errors: string[];
};

export type LighthouseOptions = {
  runs: number;
  /** No new pass starts when the passes done so far suggest it would end after this. */
  budgetMs: number;
  log: (message: string) => void;
};

export type LighthouseResult = { pages: LighthousePage[]; passes: number; note: string };

async function launchChrome(): Promise<{ chrome: LaunchedChrome; unregister: () => void }> {
  const chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  const unregister = onExit(() => {
    try {
      chrome.kill();
    } catch {
      // Already gone.
    }
  });
  return { chrome, unregister };
}

async function runOnce(port: number, url: string): Promise<LighthouseRun> {
  const flags: Flags = {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    formFactor: "mobile",
    blockedUrlPatterns: BLOCKED_URL_PATTERNS,
    skipAudits: SKIPPED_AUDITS,
    disableFullPageScreenshot: true,
  };
  const result = await lighthouse(url, flags);
  if (!result) throw new Error("Lighthouse returned no result");
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const score = (id: (typeof CATEGORIES)[number]) => {
    const value = lhr.categories[id]?.score;
    if (value === null || value === undefined) throw new Error(`no ${id} score`);
    return Math.round(value * 100);
  };
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`no ${id} value`);
    return value;
  };
  const failing = new Set<string>();
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) failing.add(ref.id);
    }
  }
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    fcpMs: numeric("first-contentful-paint"),
    lcpMs: numeric("largest-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    transferBytes: numeric("total-byte-weight"),
    failing: [...failing].sort(),
    consoleErrors: consoleErrors(lhr.audits["errors-in-console"]?.details),
  };
}

function consoleErrors(details: unknown): string[] {
  const items = (details as { items?: { source?: string; description?: string; url?: string }[] } | undefined)?.items;
  return (items ?? []).map((item) =>
    `${item.source ?? "console"}: ${item.description ?? ""}${item.url ? ` (${item.url})` : ""}`.slice(0, 300),
  );
}

function summarize(path: string, runs: LighthouseRun[], errors: string[]): LighthousePage {
  const pick = (key: Exclude<keyof LighthouseRun, "failing" | "consoleErrors">, round: (value: number) => number) =>
    runs.length ? round(median(runs.map((run) => run[key]))) : null;
  const failing: Record<string, number> = {};
  for (const run of runs) for (const id of run.failing) failing[id] = (failing[id] ?? 0) + 1;
  return {
    path,
    runs: runs.length,
    performance: pick("performance", Math.round),
    accessibility: pick("accessibility", Math.round),
    bestPractices: pick("bestPractices", Math.round),
    seo: pick("seo", Math.round),
    fcpMs: pick("fcpMs", Math.round),
    lcpMs: pick("lcpMs", Math.round),
    tbtMs: pick("tbtMs", Math.round),
    cls: pick("cls", (value) => Math.round(value * 1000) / 1000),
    transferBytes: pick("transferBytes", Math.round),
    failing: Object.fromEntries(Object.entries(failing).sort(([a], [b]) => a.localeCompare(b))),
    consoleErrors: [...new Set(runs.flatMap((run) => run.consoleErrors))].sort(),
    errors,
  };
}

export async function measureLighthouse(
  baseUrl: string,
  paths: readonly string[],
  options: LighthouseOptions,
): Promise<LighthouseResult> {
  const runs = new Map(paths.map((path) => [path, [] as LighthouseRun[]]));
  const errors = new Map(paths.map((path) => [path, [] as string[]]));
  const started = performance.now();
  let browser = await launchChrome();
  let passes = 0;
  let note = "";
  try {
    for (let pass = 1; pass <= options.runs; pass++) {
      const elapsed = performance.now() - started;
      if (pass > 1 && elapsed + elapsed / (pass - 1) > options.budgetMs) {
        note = `${pass - 1} of ${options.runs} runs per page: another pass would pass the ${Math.round(options.budgetMs / 1000)} s budget`;
        break;
      }
      for (const path of paths) {
        // A failed run (NO_NAVSTART and the like happen on a busy machine) is tried once more.
        for (let attempt = 1; attempt <= 2; attempt++) {
          const runStarted = performance.now();
          try {
            const run = await withTimeout(
              runOnce(browser.chrome.port, baseUrl + path),
              RUN_TIMEOUT_MS,
              `Lighthouse on ${path}`,
            );
            runs.get(path)?.push(run);
            options.log(
              `lighthouse ${pass}/${options.runs} ${path}: ${run.performance}/${run.accessibility}/${run.bestPractices}/${run.seo} in ${((performance.now() - runStarted) / 1000).toFixed(1)} s`,
            );
            break;
          } catch (error) {
            const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
            errors.get(path)?.push(`${message}${attempt === 1 ? " (tried again)" : ""}`);
            options.log(`lighthouse ${pass}/${options.runs} ${path}: failed: ${message}`);
            // A hung or crashed run leaves Chromium in an unknown state: start a fresh one.
            browser.chrome.kill();
            browser.unregister();
            browser = await launchChrome();
          }
        }
      }
      passes = pass;
    }
  } finally {
    browser.chrome.kill();
    browser.unregister();
  }
  return { pages: paths.map((path) => summarize(path, runs.get(path) ?? [], errors.get(path) ?? [])), passes, note };
}
