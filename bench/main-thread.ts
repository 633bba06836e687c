/**
 * What our content pages cost the browser's main thread beside Astro's blog post of the same text:
 * Astro's blog template (bench/astro-blog/) is built from the project's own notes and essay, served
 * by `astro preview`, and each pair of pages is loaded in turn (ours, Astro's, ours, Astro's …) in
 * fresh contexts of one Chromium under Lighthouse's mobile CPU slowdown (4×); the medians per page
 * and our median over Astro's.
 */
import type { Browser } from "playwright-core";
import { loadCatalogue } from "../catalogue/disk.ts";
import { installAstroPackages, writeAstroBlog, writeAstroPost } from "./astro-blog.ts";
import { freePort, runCommand, startChild, tempDir, waitForHttp } from "./processes.ts";
import { median, round1 } from "./stats.ts";

/** Our content pages, each beside Astro's post of the same text. */
const PAIRS = [
  { kind: "book note", ours: "/notes/atomic-habits", slug: "atomic-habits" },
  { kind: "essay", ours: "/write/fear", slug: "fear" },
] as const;
const RUNS = Number(process.env.BENCH_MAIN_THREAD_RUNS ?? 7);
const CPU_SLOWDOWN = 4;
/** Long enough for what the page does after `load` (the shell's DOMContentLoaded work, late layouts). */
const SETTLE_MS = 1_000;

export type MainThreadLoad = {
  styleMs: number;
  layoutMs: number;
  scriptMs: number;
  /** Every task on the page's main thread, the above included. */
  taskMs: number;
  elements: number;
  /** Frames besides the page's own, created by the time it settled. */
  frames: number;
};

export type MainThreadPage = { url: string; htmlBytes: number; runs: number } & MainThreadLoad;

export type MainThreadPair = {
  kind: string;
  ours: MainThreadPage;
  astro: MainThreadPage;
  /** Our total main-thread time over Astro's. */
  ratio: number;
};

export type MainThreadFigures = { cpuSlowdown: number; pairs: MainThreadPair[] };

/** One load in a fresh context: Chromium's own counters (Performance.getMetrics) once the page has settled. */
async function loadOnce(browser: Browser, url: string): Promise<MainThreadLoad> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const origin = new URL(url).origin;
    // Other hosts (the players) cannot be reached here: blocked, as for Lighthouse.
    await context.route(
      (target) => target.origin !== origin,
      (route) => route.abort("blockedbyclient"),
    );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForTimeout(SETTLE_MS);
    const { metrics } = await cdp.send("Performance.getMetrics");
    const ms = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? Number.NaN) * 1000;
    return {
      styleMs: ms("RecalcStyleDuration"),
      layoutMs: ms("LayoutDuration"),
      scriptMs: ms("ScriptDuration"),
      taskMs: ms("TaskDuration"),
      elements: await page.evaluate(() => document.getElementsByTagName("*").length),
      frames: page.frames().length - 1,
    };
  } finally {
    await context.close();
  }
}

function summarize(url: string, htmlBytes: number, loads: MainThreadLoad[]): MainThreadPage {
  const mid = (key: keyof MainThreadLoad) => round1(median(loads.map((load) => load[key])));
  return {
    url,
    htmlBytes,
    runs: loads.length,
    styleMs: mid("styleMs"),
    layoutMs: mid("layoutMs"),
    scriptMs: mid("scriptMs"),
    taskMs: mid("taskMs"),
    elements: mid("elements"),
    frames: mid("frames"),
  };
}

const htmlBytesOf = async (url: string) => (await (await fetch(url)).arrayBuffer()).byteLength;

/** Builds Astro's blog from the project at `projectRoot`, then measures it beside our pages at `ourUrl`. */
export async function measureMainThread(
  browser: Browser,
  projectRoot: string,
  ourUrl: string,
  log: (message: string) => void,
): Promise<MainThreadFigures> {
  await installAstroPackages(log);
  const blog = tempDir("astro-main-thread");
  writeAstroBlog(blog, projectRoot);
  const essay = loadCatalogue(projectRoot).writings.find((writing) => writing.slug === "fear");
  if (!essay) throw new Error("the essay /write/fear is not in the catalogue");
  writeAstroPost(blog, projectRoot, { ...essay, description: `An essay: ${essay.name}.` });
  const port = await freePort();
  const astroUrl = `http://127.0.0.1:${port}`;
  const env = { ...process.env, SITE_URL: astroUrl, ASTRO_TELEMETRY_DISABLED: "1" };
  log("main-thread: building Astro's blog of the same notes");
  await runCommand("npx", ["astro", "build"], { cwd: blog, env, timeoutMs: 5 * 60_000 });
  const preview = startChild("npx", ["astro", "preview", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: blog,
    env,
  });
  try {
    await waitForHttp(`${astroUrl}/`, 60_000, preview);
    const pairs: MainThreadPair[] = [];
    for (const pair of PAIRS) {
      const urls = { ours: ourUrl + pair.ours, astro: `${astroUrl}/blog/${pair.slug}/` };
      const loads = { ours: [] as MainThreadLoad[], astro: [] as MainThreadLoad[] };
      // A warm-up of each (server caches, Chromium's own first-run work), not counted.
      await loadOnce(browser, urls.ours);
      await loadOnce(browser, urls.astro);
      for (let run = 1; run <= RUNS; run++) {
        loads.ours.push(await loadOnce(browser, urls.ours));
        loads.astro.push(await loadOnce(browser, urls.astro));
      }
      const ours = summarize(pair.ours, await htmlBytesOf(urls.ours), loads.ours);
      const astro = summarize(`/blog/${pair.slug}/`, await htmlBytesOf(urls.astro), loads.astro);
      log(`main-thread: ${pair.ours} ${ours.taskMs} ms, Astro's post ${astro.taskMs} ms`);
      pairs.push({ kind: pair.kind, ours, astro, ratio: Math.round((ours.taskMs / astro.taskMs) * 100) / 100 });
    }
    return { cpuSlowdown: CPU_SLOWDOWN, pairs };
  } finally {
    await preview.stop(5_000);
  }
}
