/** The project's speed and weight budgets, checked against the figures. */
import { ASTRO_LABEL, type BuildRun } from "./build-phases.ts";
import { type Budget, ok, type Results } from "./results.ts";
import { kB } from "./stats.ts";

/**
 * The pages whose interaction needs React (an instant filter, forms answering in place, players
 * loading in turn); every other bench page must ship no module script.
 */
const HYDRATED_PAGES = new Set(["/", "/notes", "/write", "/podcast", "/videos", "/contact", "/updates"]);

export const LIMITS = {
  lighthouseScore: 100,
  cls: 0,
  ownJsGzipBytes: 15_000,
  hydratedJsGzipBytes: 123_000,
  notePageTransferBytes: 20_000,
  /** 1.1 × the first contentful paint of the Astro blog template's post, measured beside ours. */
  zeroJsFcpMs: Math.round(1.1 * 676),
  nginxRatio: 0.5,
  keystrokeRealMs: 16,
  keystrokeLargeMs: 100,
  searchIndexRealGzipKB: 150,
  searchIndexLargeGzipKB: 1500,
  /** The build, by its label in the build-phases section: seconds at most. */
  buildSeconds: {
    "sample, clean build/": 12,
    "sample, one note changed": 6,
    "2,000 notes, no cache": 30,
    "10,000 notes, no cache": 150,
  } as Record<string, number>,
  /** The 2,000-note build's peak memory. */
  buildPeakMB: 1024,
  /** The 2,000-note build over Astro's blog template with the same 2,000 notes as posts. */
  astroWallRatio: 1.5,
  astroCpuRatio: 2,
  /** A content page's main-thread work over that of Astro's blog post of the same text, measured in turn. */
  mainThreadRatio: 1.2,
  /** Seconds per 1,000 pages of the largest catalogue over the 2,000-note one's: flat. */
  buildScaling: 1.25,
  /** A send of 10,000 mails, each signed with DKIM, to a local sink (listmonk claims 7M+ mails at 57 MB). */
  newsletterMailsPerSecond: 1000,
  newsletterPeakMB: 100,
} as const;

const na = (check: string, limit: string, why: string): Budget => ({ check, limit, actual: why, result: "n/a" });
const verdict = (passed: boolean): Budget["result"] => (passed ? "pass" : "FAIL");

function listed(items: string[], most = 4): string {
  return items.length > most ? `${items.slice(0, most).join(", ")} +${items.length - most} more` : items.join(", ");
}

export function checkBudgets(results: Omit<Results, "budgets" | "durationSeconds">): Budget[] {
  const budgets: Budget[] = [];
  const lighthouse = ok(results.lighthouse);
  {
    const check = "Lighthouse: 100 in all four categories, every page";
    if (!lighthouse) budgets.push(na(check, "100", "no figures"));
    else {
      const below: string[] = [];
      for (const page of lighthouse.pages) {
        for (const [label, score] of [
          ["perf", page.performance],
          ["a11y", page.accessibility],
          ["bp", page.bestPractices],
          ["seo", page.seo],
        ] as const) {
          if (score === null) below.push(`${page.path} ${label} –`);
          else if (score < LIMITS.lighthouseScore) below.push(`${page.path} ${label} ${score}`);
        }
      }
      budgets.push({
        check,
        limit: "100",
        actual: below.length ? listed(below) : "all 100",
        result: verdict(!below.length),
      });
    }
  }
  {
    const check = "CLS 0 on every page (median)";
    if (!lighthouse) budgets.push(na(check, "0", "no figures"));
    else {
      const shifting = lighthouse.pages.filter((page) => page.cls === null || page.cls > LIMITS.cls);
      budgets.push({
        check,
        limit: "0",
        actual: shifting.length ? listed(shifting.map((page) => `${page.path} ${page.cls ?? "–"}`)) : "0 everywhere",
        result: verdict(!shifting.length),
      });
    }
  }
  const bytes = ok(results.bytes);
  {
    const check = "Each page's own JS (gzip)";
    const limitText = `≤ ${kB(LIMITS.ownJsGzipBytes)} kB`;
    if (!bytes?.pages.length) budgets.push(na(check, limitText, "no figures"));
    else {
      const largest = [...bytes.pages].sort((a, b) => b.ownJs.gzip - a.ownJs.gzip)[0];
      const over = bytes.pages.filter((page) => page.ownJs.gzip > LIMITS.ownJsGzipBytes);
      budgets.push({
        check,
        limit: limitText,
        actual: largest ? `max ${kB(largest.ownJs.gzip)} kB (${largest.path})` : "–",
        result: verdict(over.length === 0),
      });
    }
  }
  {
    const check = "Hydrated pages: first-load JS (gzip)";
    const limitText = `≤ ${kB(LIMITS.hydratedJsGzipBytes)} kB`;
    const hydrated = bytes?.pages.filter((page) => page.hydrates) ?? [];
    if (!hydrated.length) budgets.push(na(check, limitText, "no figures"));
    else {
      const largest = [...hydrated].sort((a, b) => b.totalJs.gzip - a.totalJs.gzip)[0];
      const over = hydrated.filter((page) => page.totalJs.gzip > LIMITS.hydratedJsGzipBytes);
      budgets.push({
        check,
        limit: limitText,
        actual: largest ? `max ${kB(largest.totalJs.gzip)} kB (${largest.path})` : "–",
        result: verdict(over.length === 0),
      });
    }
  }
  {
    const check = "Content pages ship no module script";
    if (!bytes?.pages.length) budgets.push(na(check, "0", "no figures"));
    else {
      const content = bytes.pages.filter((page) => !HYDRATED_PAGES.has(page.path));
      const scripted = content.filter((page) => page.moduleScripts > 0);
      budgets.push({
        check,
        limit: "0",
        actual: scripted.length
          ? listed(scripted.map((page) => `${page.path} ${page.moduleScripts}`))
          : `0 on ${content.length} pages`,
        result: verdict(scripted.length === 0),
      });
    }
  }
  {
    const check = "A note page's total transfer (Lighthouse)";
    const limitText = `≤ ${kB(LIMITS.notePageTransferBytes)} kB`;
    const notes = lighthouse?.pages.filter((page) => page.path.startsWith("/notes/")) ?? [];
    if (!notes.length) budgets.push(na(check, limitText, "no figures"));
    else {
      const over = notes.filter(
        (page) => page.transferBytes === null || page.transferBytes > LIMITS.notePageTransferBytes,
      );
      budgets.push({
        check,
        limit: limitText,
        actual: notes
          .map((page) => `${page.path} ${page.transferBytes === null ? "–" : kB(page.transferBytes)} kB`)
          .join(", "),
        result: verdict(over.length === 0),
      });
    }
  }
  {
    const check = "FCP of content pages (median, mobile)";
    const limitText = `≤ ${LIMITS.zeroJsFcpMs} ms`;
    const content = lighthouse?.pages.filter((page) => !HYDRATED_PAGES.has(page.path)) ?? [];
    if (!content.length) budgets.push(na(check, limitText, "no figures"));
    else {
      const slow = content.filter((page) => page.fcpMs === null || page.fcpMs > LIMITS.zeroJsFcpMs);
      const slowest = Math.max(...content.map((page) => page.fcpMs ?? Number.POSITIVE_INFINITY));
      budgets.push({
        check,
        limit: limitText,
        actual: slow.length ? listed(slow.map((page) => `${page.path} ${page.fcpMs ?? "–"} ms`)) : `max ${slowest} ms`,
        result: verdict(slow.length === 0),
      });
    }
  }
  {
    const check = "Prerendered pages: req/s vs nginx";
    const limit = `≥ ${LIMITS.nginxRatio} × nginx`;
    const load = ok(results.pageLoad);
    if (!load) budgets.push(na(check, limit, "no figures"));
    else if (load.ratio === null) budgets.push(na(check, limit, load.nginx.status === "ok" ? "–" : load.nginx.reason));
    else
      budgets.push({ check, limit, actual: `${load.ratio} × nginx`, result: verdict(load.ratio >= LIMITS.nginxRatio) });
  }
  for (const [section, limit] of [
    [results.keystrokes.real, LIMITS.keystrokeRealMs],
    [results.keystrokes.large, LIMITS.keystrokeLargeMs],
  ] as const) {
    const figures = ok(section);
    const notes = figures
      ? figures.catalogueNotes.toLocaleString("en-US")
      : section === results.keystrokes.real
        ? "~270"
        : "10,000";
    const check = `Keystroke to screen at ${notes} notes (median)`;
    if (!figures) budgets.push(na(check, `< ${limit} ms`, "no figures"));
    else
      budgets.push({
        check,
        limit: `< ${limit} ms`,
        actual: `${figures.medianMs} ms`,
        result: verdict(figures.medianMs < limit),
      });
  }
  {
    const check = "Fast typing keeps every keystroke";
    const checks = [results.keystrokes.real, results.keystrokes.large].flatMap((section) => {
      const figures = ok(section);
      return figures ? [{ notes: figures.catalogueNotes, ...figures.fastTyping }] : [];
    });
    if (!checks.length) budgets.push(na(check, "no key lost", "no figures"));
    else {
      const lost = checks.filter((item) => item.lost > 0);
      budgets.push({
        check,
        limit: "no key lost",
        actual: lost.length
          ? lost.map((item) => `${item.notes} notes: ${item.lost}/${item.tries} tries, "${item.example}"`).join("; ")
          : "none lost",
        result: verdict(lost.length === 0),
      });
    }
  }
  for (const [size, section, limit] of [
    ["the sample", results.search?.real, LIMITS.searchIndexRealGzipKB],
    ["10,000 notes", results.search?.large, LIMITS.searchIndexLargeGzipKB],
  ] as const) {
    const check = `Search index at ${size}, gzip`;
    const figures = section && ok(section);
    if (!figures) budgets.push(na(check, `≤ ${limit} kB`, "no figures"));
    else
      budgets.push({
        check,
        limit: `≤ ${limit} kB`,
        actual: `${figures.index.gzipKB} kB`,
        result: verdict(figures.index.gzipKB <= limit),
      });
  }
  budgets.push(...buildBudgets(results));
  const mainThread = results.mainThread && ok(results.mainThread);
  {
    const check = "Content page main-thread ≤ 1.2× Astro's post";
    const limit = `≤ ${LIMITS.mainThreadRatio}×`;
    if (!mainThread) budgets.push(na(check, limit, "not measured"));
    else
      budgets.push({
        check,
        limit,
        actual: mainThread.pairs.map((pair) => `${pair.ours.url} ${pair.ratio}×`).join(", "),
        result: verdict(mainThread.pairs.every((pair) => pair.ratio <= LIMITS.mainThreadRatio)),
      });
  }
  const newsletter = results.newsletter && ok(results.newsletter);
  const speed = { check: "Newsletter: signed mails per second", limit: `≥ ${LIMITS.newsletterMailsPerSecond}` };
  const memory = { check: "Newsletter: the sending process's peak RSS", limit: `≤ ${LIMITS.newsletterPeakMB} MB` };
  if (!newsletter)
    budgets.push(na(speed.check, speed.limit, "not measured"), na(memory.check, memory.limit, "not measured"));
  else
    budgets.push(
      {
        ...speed,
        actual: `${newsletter.mailsPerSecond} (${newsletter.cpuMsPerMail} ms of CPU a mail)`,
        result: verdict(newsletter.mailsPerSecond >= LIMITS.newsletterMailsPerSecond),
      },
      {
        ...memory,
        actual: `${newsletter.peakRssMb} MB (${newsletter.rssAtFirstMailMb} MB at the first mail)`,
        result: verdict(newsletter.peakRssMb <= LIMITS.newsletterPeakMB),
      },
    );
  return budgets;
}

function buildBudgets(results: Omit<Results, "budgets" | "durationSeconds">): Budget[] {
  const figures = ok(results.buildPhases);
  const budgets: Budget[] = [];
  for (const [label, limit] of Object.entries(LIMITS.buildSeconds)) {
    const check = `Build: ${label}`;
    const run = figures?.runs.find((candidate) => candidate.label === label);
    if (!run) budgets.push(na(check, `≤ ${limit} s`, "not measured"));
    else
      budgets.push({
        check,
        limit: `≤ ${limit} s`,
        actual: `${run.totalSeconds} s (${run.cpuSeconds} s CPU)`,
        result: verdict(run.totalSeconds <= limit),
      });
  }
  const own = figures?.runs.filter((run) => run.label !== ASTRO_LABEL) ?? [];
  const twoThousand = own.find((run) => run.label === "2,000 notes, no cache");
  const astro = figures?.runs.find((run) => run.label === ASTRO_LABEL);
  for (const [what, limit, of] of [
    ["wall", LIMITS.astroWallRatio, (run: BuildRun) => run.totalSeconds],
    ["CPU", LIMITS.astroCpuRatio, (run: BuildRun) => run.cpuSeconds],
  ] as const) {
    const check = `Build: 2,000 notes vs Astro blog, ${what}`;
    if (!twoThousand || !astro)
      budgets.push(na(check, `≤ ${limit}×`, figures?.astroMissing ? `Astro ${figures.astroMissing}` : "not measured"));
    else {
      const ratio = Math.round((of(twoThousand) / of(astro)) * 100) / 100;
      budgets.push({
        check,
        limit: `≤ ${limit}×`,
        actual: `${ratio}× (${of(twoThousand)} s vs ${of(astro)} s)`,
        result: verdict(ratio <= limit),
      });
    }
  }
  const memory = "Build: peak memory at 2,000 notes";
  if (!twoThousand) budgets.push(na(memory, `≤ ${LIMITS.buildPeakMB} MB`, "not measured"));
  else
    budgets.push({
      check: memory,
      limit: `≤ ${LIMITS.buildPeakMB} MB`,
      actual: `${twoThousand.peakMemoryMB} MB`,
      result: verdict(twoThousand.peakMemoryMB <= LIMITS.buildPeakMB),
    });
  const perThousand = (run: { totalSeconds: number; pages: number }) => (run.totalSeconds / run.pages) * 1000;
  const largest = own.at(-1);
  const scaling = "Build: seconds per 1,000 pages, largest catalogue over 2,000 notes";
  if (!twoThousand || !largest || largest === twoThousand)
    budgets.push(na(scaling, `≤ ${LIMITS.buildScaling}×`, "not measured"));
  else {
    const ratio = Math.round((perThousand(largest) / perThousand(twoThousand)) * 100) / 100;
    budgets.push({
      check: scaling,
      limit: `≤ ${LIMITS.buildScaling}×`,
      actual: `${ratio}×`,
      result: verdict(ratio <= LIMITS.buildScaling),
    });
  }
  return budgets;
}
