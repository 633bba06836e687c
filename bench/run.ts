/**
 * `npm run bench`: builds the site (timed), then times builds in copies of the project: the sample
 * with no cache, with nothing changed, after one note changed and with no build served; then
 * BENCH_BUILD_NOTES generated notes, every page prerendered, the 2,000-note copy followed by Astro's
 * blog template made from the same notes (bench/astro-blog/). Builds a copy with BENCH_NOTES notes,
 * starts the production server on a free port with a temporary DATA_DIR and RATE_LIMIT=0, measures
 * Lighthouse, page weight, HTTP load (against nginx too when it is installed), sign-ups, the API
 * under list load, sign-ups and newsletter delivery (one and two instances) on a throwaway
 * PostgreSQL cluster, keystrokes, the opening of a page from a page with React on a slow link, the
 * main-thread work of a note and an essay beside Astro's blog post of the same text, the
 * notes search and its costliest queries; then the search and keystrokes on the large copy, and
 * newsletter delivery on SQLite, and the fediverse fan-out and inbox. Prints the figures with the budgets and writes them to
 * bench/results.json. A section that fails says why; the others still run. Progress goes to
 * stderr, the report to stdout.
 *
 * Environment (all optional): BENCH_LH_RUNS (Lighthouse runs per page, 3), BENCH_TARGET_SECONDS
 * (the whole run's target, 600: Lighthouse does fewer passes rather than pass it), BENCH_NOTES
 * (10000), BENCH_RECIPIENTS (10000), BENCH_BUILD_NOTES (2000,10000; empty for the sample alone),
 * BENCH_SKIP (comma-separated: build-phases, large, lighthouse, bytes, load, nginx, signups,
 * amplification, signups-postgres, newsletter-postgres, keystrokes, navigation, main-thread, search, search-cost,
 * keystrokes-large, newsletter, bounce-mailbox, fediverse). BENCH_ONLY (comma-separated section names) skips every other
 * section, e.g. `BENCH_ONLY=amplification npm run bench` for the API latency under list load alone;
 * `BENCH_ONLY=build` for the builds alone, with BENCH_BUILD_NOTES=2000 for ours beside Astro's blog.
 * BENCH_MAIN_THREAD_RUNS (7): loads of each page in the main-thread section.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { present } from "../catalogue/present.ts";
import { createTestDatabase, startPostgres } from "../tests/support/postgres.ts";
import { measureAmplification } from "./amplification.ts";
import { measureBounceMailbox } from "./bounce-mailbox.ts";
import { withBrowser } from "./browser.ts";
import { checkBudgets } from "./budgets.ts";
import { buildLargeCopy, buildSite, servedBuildOf } from "./build.ts";
import { measureBuildRuns } from "./build-phases.ts";
import { measureBytes } from "./bytes.ts";
import { measureFediverse } from "./fediverse.ts";
import { BLOCKED_URL_PATTERNS, CHROME_PATH, measureLighthouse, SKIPPED_AUDITS } from "./lighthouse.ts";
import { measureLoad, pageRequests, signupRequests } from "./load.ts";
import { measureMainThread } from "./main-thread.ts";
import { measureKeystrokes } from "./measure-keystrokes.ts";
import { measureNavigation } from "./navigation.ts";
import { measureNewsletter } from "./newsletter.ts";
import { measurePostgresNewsletter } from "./newsletter-postgres.ts";
import { findNginx, startNginx } from "./nginx.ts";
import { freePort, installExitHandlers, tempDir, withTimeout } from "./processes.ts";
import { renderReport } from "./report.ts";
import type { Results, Section, ServedLoad } from "./results.ts";
import { measureSearch, type SearchFigures } from "./search.ts";
import { measureSearchCost } from "./search-cost.ts";
import { type RunningServer, startSiteServer } from "./server.ts";
import { reason, round1 } from "./stats.ts";
import { checkFastTyping } from "./typing-check.ts";

const ROOT = resolve(import.meta.dirname, "..");
const RESULTS_FILE = join(ROOT, "bench/results.json");

const PAGES = [
  "/",
  "/notes",
  "/notes/atomic-habits",
  "/write",
  "/write/fear",
  "/apps/twos",
  "/work/google",
  "/podcast",
  "/videos",
  "/contact",
  "/now",
  "/stats",
  "/stats/2024",
  "/notes/shelves",
  "/quotes",
  "/quotes/walden-1",
  "/about",
  // Not /search: a page of results is noindex on purpose, which Lighthouse's SEO category counts against it.
] as const;

const LH_RUNS = Number(process.env.BENCH_LH_RUNS ?? 3);
const TARGET_SECONDS = Number(process.env.BENCH_TARGET_SECONDS ?? 600);
const LARGE_NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const SKIP = new Set((process.env.BENCH_SKIP ?? "").split(",").filter(Boolean));
const ONLY = new Set((process.env.BENCH_ONLY ?? "").split(",").filter(Boolean));
// The search is measured on the 10,000-note copy too, which the section "large" builds.
if (ONLY.has("search")) ONLY.add("large");
/** The build is always made: every other section measures it. */
const skipped = (name: string) =>
  SKIP.has(name) ||
  (ONLY.size > 0 && name !== "build" && !ONLY.has(name) && !(name === "build-phases" && ONLY.has("build")));
/** What the sections after Lighthouse need, in seconds, kept out of its time budget. */
const RESERVED_AFTER_LIGHTHOUSE_S = 150;
const PAGE_LOAD = { connections: 100, seconds: 10, acceptEncoding: "br, gzip" };
const SIGNUPS = { connections: 50, seconds: 10 };
/** The generated catalogues the build section builds in full, every page prerendered. */
const BUILD_SIZES = (process.env.BENCH_BUILD_NOTES ?? "2000,10000").split(",").filter(Boolean).map(Number);

const started = performance.now();
const elapsedSeconds = () => (performance.now() - started) / 1000;
const log = (message: string) => console.error(`[bench ${elapsedSeconds().toFixed(0).padStart(3)} s] ${message}`);

/** Runs one section: its figures, or "failed: reason" without stopping the benchmark. */
async function section<T>(name: string, work: () => Promise<T>): Promise<Section<T>> {
  if (skipped(name)) return { status: "skipped", reason: SKIP.has(name) ? "BENCH_SKIP" : "BENCH_ONLY" };
  log(`${name}…`);
  const sectionStarted = performance.now();
  try {
    const figures = await work();
    log(`${name} done in ${((performance.now() - sectionStarted) / 1000).toFixed(1)} s`);
    return { status: "ok", ...figures };
  } catch (error) {
    log(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { status: "failed", reason: reason(error) };
  }
}

const unavailable = (why: string) => ({ status: "failed" as const, reason: why });

/** The sign-up load again, on a second server whose data lives in a throwaway PostgreSQL cluster. */
async function measurePostgresSignups() {
  // Durable like the SQLite file (synchronous = FULL): every acknowledged sign-up is on disk.
  const postgres = await startPostgres({ durable: true });
  try {
    const databaseUrl = await createTestDatabase(postgres.adminUrl);
    const server = await startSiteServer(ROOT, "postgres", await freePort(), undefined, {
      DATABASE_URL: databaseUrl,
      SECRET_KEY: "bench-secret-0123456789abcdef0123456789abcdef",
    });
    try {
      const figures = await measureLoad({
        ...SIGNUPS,
        url: server.url,
        requests: signupRequests(server.url),
        warmupSeconds: 2,
      });
      return { ...SIGNUPS, figures };
    } finally {
      await server.stop();
    }
  } finally {
    await postgres.stop();
  }
}

function chromiumVersion(): string {
  const result = spawnSync(CHROME_PATH, ["--version"], { encoding: "utf8", timeout: 10_000 });
  return result.stdout?.trim() || "Chromium (version unknown)";
}

function countNotes(root: string): number {
  return readdirSync(join(root, "content/notes")).filter((name) => name.endsWith(".md")).length;
}

/** The response's Content-Encoding for these request headers, e.g. "br". */
async function servedEncoding(url: string, acceptEncoding: string): Promise<string> {
  const response = await fetch(url, { headers: { "Accept-Encoding": acceptEncoding } });
  await response.arrayBuffer();
  return response.headers.get("Content-Encoding") ?? "identity";
}

async function measurePageLoad(server: RunningServer) {
  // Only the pages that are files in the build: nginx gets the same set.
  const clientDir = join(servedBuildOf(ROOT), "client");
  const paths = PAGES.filter((path) => existsSync(join(clientDir, path, "index.html")));
  if (paths.length === 0) throw new Error(`no prerendered page in ${clientDir}`);
  const requests = pageRequests(paths);
  const headers = { "Accept-Encoding": PAGE_LOAD.acceptEncoding };
  const options = { connections: PAGE_LOAD.connections, seconds: PAGE_LOAD.seconds, requests, headers };
  log(`page load: Node server (${paths.length} pages)`);
  const node: ServedLoad = {
    server: "Node server",
    encoding: await servedEncoding(`${server.url}${paths[0]}`, PAGE_LOAD.acceptEncoding),
    ...(await measureLoad({ ...options, url: server.url, warmupSeconds: 2 })),
  };
  const binary = findNginx();
  const nginx: Section<ServedLoad> = binary
    ? await section("nginx", async () => {
        const served = await startNginx(binary, clientDir);
        try {
          log(`page load: nginx (${binary}, ${served.brotli ? "brotli_static" : "gzip_static"})`);
          return {
            server: "nginx, 1 worker",
            encoding: await servedEncoding(`${served.url}${paths[0]}`, PAGE_LOAD.acceptEncoding),
            ...(await measureLoad({ ...options, url: served.url, warmupSeconds: 2 })),
          };
        } finally {
          await served.stop();
        }
      })
    : { status: "skipped", reason: "nginx not installed" };
  const ratio =
    nginx.status === "ok" ? Math.round((node.requestsPerSecond / nginx.requestsPerSecond) * 100) / 100 : null;
  return { paths: [...paths], ...PAGE_LOAD, node, nginx, ratio };
}

const oneMinuteLoad = () => present(loadavg()[0], "os.loadavg() to give the one-minute average");

async function main() {
  installExitHandlers();
  const loadAverageAtStart = round1(oneMinuteLoad());
  const port = await freePort();
  const siteUrl = `http://127.0.0.1:${port}`;

  const build = await section("build", async () => ({ seconds: round1((await buildSite(ROOT, siteUrl)) / 1000) }));
  const buildPhases = await section("build-phases", () => measureBuildRuns(ROOT, siteUrl, BUILD_SIZES, log));

  // The 10,000-note copy is built before any measurement, so that what is left of the time
  // budget for Lighthouse is known.
  const largePort = await freePort();
  const largeBuild = await section("large", () =>
    buildLargeCopy({
      projectRoot: ROOT,
      root: tempDir("large-site"),
      total: LARGE_NOTES,
      siteUrl: `http://127.0.0.1:${largePort}`,
    }),
  );

  let lighthouse: Results["lighthouse"] = unavailable("the build failed");
  let bytes: Results["bytes"] = unavailable("the build failed");
  let pageLoad: Results["pageLoad"] = unavailable("the build failed");
  let signups: Results["signups"] = unavailable("the build failed");
  let amplification: Results["amplification"] = unavailable("the build failed");
  let signupsPostgres: Results["signupsPostgres"] = unavailable("the build failed");
  let newsletterPostgres: Results["newsletterPostgres"] = unavailable("the build failed");
  let real: Results["keystrokes"]["real"] = unavailable("the build failed");
  let navigation: Results["navigation"] = unavailable("the build failed");
  let mainThread: Results["mainThread"] = unavailable("the build failed");
  let searchReal: Section<SearchFigures> = unavailable("the build failed");
  let searchCost: Results["searchCost"] = unavailable("the build failed");
  if (build.status === "ok") {
    let server: RunningServer | undefined;
    try {
      server = await startSiteServer(ROOT, "site", port);
    } catch (error) {
      const why = `the server did not start: ${reason(error)}`;
      lighthouse =
        bytes =
        pageLoad =
        signups =
        signupsPostgres =
        newsletterPostgres =
        amplification =
        real =
        navigation =
        mainThread =
          unavailable(why);
      searchReal = searchCost = unavailable(why);
      log(why);
    }
    if (server) {
      const url = server.url;
      try {
        lighthouse = await section("lighthouse", async () => {
          const budgetMs = Math.max(0, (TARGET_SECONDS - elapsedSeconds() - RESERVED_AFTER_LIGHTHOUSE_S) * 1000);
          const result = await measureLighthouse(url, PAGES, { runs: LH_RUNS, budgetMs, log });
          if (result.passes === 0) throw new Error("no Lighthouse run finished");
          return {
            runsPerPage: result.passes,
            note: result.note,
            blockedUrlPatterns: BLOCKED_URL_PATTERNS,
            skippedAudits: SKIPPED_AUDITS,
            pages: result.pages,
          };
        });
        bytes = await section("bytes", () =>
          withTimeout(
            withBrowser((browser) => measureBytes(browser, url, PAGES)),
            180_000,
            "measuring page weight",
          ),
        );
        pageLoad = await section("load", () => measurePageLoad(server));
        signups = await section("signups", async () => ({
          ...SIGNUPS,
          figures: await measureLoad({ ...SIGNUPS, url, requests: signupRequests(url), warmupSeconds: 2 }),
        }));
        amplification = await section("amplification", () => measureAmplification(url, server?.pid, log));
        signupsPostgres = await section("signups-postgres", () => measurePostgresSignups());
        newsletterPostgres = await section("newsletter-postgres", async () => ({
          recipients: RECIPIENTS,
          runs: await measurePostgresNewsletter(ROOT, RECIPIENTS),
        }));
        real = await section("keystrokes", async () => ({
          catalogueNotes: countNotes(ROOT),
          ...(await withTimeout(
            withBrowser(async (browser) => ({
              ...(await measureKeystrokes(browser, url)),
              fastTyping: await checkFastTyping(browser, url),
            })),
            180_000,
            "the keystroke measurement",
          )),
        }));
        navigation = await section("navigation", async () => ({
          journeys: await withTimeout(
            withBrowser((browser) => measureNavigation(browser, url)),
            180_000,
            "the navigation measurement",
          ),
        }));
        mainThread = await section("main-thread", () =>
          withTimeout(
            withBrowser((browser) => measureMainThread(browser, ROOT, url, log)),
            600_000,
            "the main-thread measurement",
          ),
        );
        searchReal = await section("search", () =>
          withTimeout(
            withBrowser((browser) => measureSearch(browser, ROOT, url, log)),
            600_000,
            "the search measurement",
          ),
        );
        searchCost = await section("search-cost", () =>
          withTimeout(measureSearchCost(ROOT, url, server?.pid, log), 600_000, "the search cost measurement"),
        );
      } finally {
        await server.stop();
      }
    }
  }

  const searchLarge: Section<SearchFigures> =
    largeBuild.status !== "ok"
      ? largeBuild
      : await section("search", async () => {
          const server = await startSiteServer(largeBuild.root, "large-search-data", largePort);
          try {
            return await withTimeout(
              withBrowser((browser) => measureSearch(browser, largeBuild.root, server.url, log)),
              900_000,
              "the search measurement on 10,000 notes",
            );
          } finally {
            await server.stop();
          }
        });

  let large: Results["keystrokes"]["large"];
  if (largeBuild.status !== "ok") large = largeBuild;
  else {
    large = await section("keystrokes-large", async () => {
      const server = await startSiteServer(largeBuild.root, "large-data", largePort);
      try {
        const figures = await withTimeout(
          withBrowser(async (browser) => ({
            ...(await measureKeystrokes(browser, server.url, { loadTimeoutMs: 60_000 })),
            fastTyping: await checkFastTyping(browser, server.url),
          })),
          300_000,
          "the keystroke measurement",
        );
        return {
          catalogueNotes: countNotes(largeBuild.root),
          generatedNotes: largeBuild.generated,
          buildSeconds: round1(largeBuild.buildMs / 1000),
          ...figures,
        };
      } finally {
        await server.stop();
      }
    });
  }

  const newsletter = await section("newsletter", () => measureNewsletter({ recipients: RECIPIENTS, log }));
  const bounceMailbox = await section("bounce-mailbox", () => measureBounceMailbox({ reports: RECIPIENTS, log }));
  const fediverse = await section("fediverse", () => measureFediverse());

  const partial = {
    date: new Date().toISOString().slice(0, 10),
    machine: {
      node: process.version,
      chromium: chromiumVersion(),
      cpus: cpus().length,
      loadAverageAtStart,
      loadAverageAtEnd: round1(oneMinuteLoad()),
    },
    build,
    buildPhases,
    lighthouse,
    bytes,
    pageLoad,
    signups,
    amplification,
    signupsPostgres,
    newsletterPostgres,
    keystrokes: { real, large },
    navigation,
    mainThread,
    search: { real: searchReal, large: searchLarge },
    newsletter,
  };
  const results: Results = {
    date: partial.date,
    machine: partial.machine,
    durationSeconds: Math.round(elapsedSeconds()),
    build,
    buildPhases,
    lighthouse,
    bytes,
    pageLoad,
    signups,
    amplification,
    signupsPostgres,
    newsletterPostgres,
    keystrokes: partial.keystrokes,
    navigation,
    mainThread,
    search: partial.search,
    searchCost,
    newsletter,
    bounceMailbox,
    fediverse,
    budgets: checkBudgets(partial),
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(renderReport(results));
}

await main();
process.exit(0);
