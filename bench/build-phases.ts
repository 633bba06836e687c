/**
 * One `npm run build` timed phase by phase: the build prints its phase boundaries when
 * BUILD_TIMINGS is set (catalogue/build-timing.ts), and the whole process tree's resident memory
 * is polled from /proc for its peak.
 */
import { appendFileSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseTimingLines, TIMING_LINE_PREFIX, type TimingEvent } from "../catalogue/build-timing.ts";
import { buildsOf, copyProject, servedBuildOf } from "./build.ts";
import { generateNotes } from "./generate-notes.ts";
import { runCommand, tempDir } from "./processes.ts";
import { round1 } from "./stats.ts";

const BUILD_TIMEOUT_MS = 15 * 60_000;
const USAGE_POLL_MS = 250;

export type BuildPhases = {
  totalSeconds: number;
  /** CPU time of the build's processes, polled: on a shared machine it says more than the wall clock. */
  cpuSeconds: number;
  peakMemoryMB: number;
  pages: number;
  cards: number;
  /**
   * Seconds per phase, in the build's order, null for a phase the build skipped (the bundles, when
   * only the content changed); `cards drawn` and `pages compressed` are work inside `prerender`,
   * summed over its threads.
   */
  phases: Record<string, number | null>;
};

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Resident memory (bytes) and CPU time so far (seconds, the ended children included) of `pid` and
 * all its descendants (Linux /proc).
 */
function treeUsage(pid: number): { residentBytes: number; cpuSeconds: number } {
  const children = new Map<number, number[]>();
  const resident = new Map<number, number>();
  const cpuTicks = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces: the fields after its closing parenthesis are fixed.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      resident.set(Number(entry), Number(fields[21]) * 4096);
      // utime, stime, cutime, cstime.
      cpuTicks.set(
        Number(entry),
        [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]), 0),
      );
    } catch {
      // The process ended while being read.
    }
  }
  let residentBytes = 0;
  let ticks = 0;
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    residentBytes += resident.get(next) ?? 0;
    ticks += cpuTicks.get(next) ?? 0;
    pending.push(...(children.get(next) ?? []));
  }
  return { residentBytes, cpuSeconds: ticks / CLOCK_TICKS_PER_SECOND };
}

function phaseSeconds(events: TimingEvent[]): Record<string, number | null> {
  // A phase may be reported more than once (React Router's own passes over the routes): from its first start to its last end.
  const at = (phase: string, event: "start" | "end") => {
    const matching = events.filter((candidate) => candidate.phase === phase && candidate.event === event);
    const line = event === "start" ? matching[0] : matching.at(-1);
    return line && "at" in line ? line.at : undefined;
  };
  const span = (from: number | undefined, to: number | undefined) =>
    from === undefined || to === undefined ? null : round1((to - from) / 1000);
  const spent = (phase: string) =>
    round1(
      events
        .filter((line) => line.phase === phase && line.event === "spent")
        .reduce((sum, line) => sum + ("ms" in line ? line.ms : 0), 0) / 1000,
    );
  return {
    "client bundle": span(at("bundle:client", "start"), at("bundle:client", "end")),
    "server bundle": span(at("bundle:ssr", "start"), at("bundle:ssr", "end")),
    "content files": span(at("content", "start"), at("content", "end")),
    prerender: span(at("prerender", "start"), at("prerender", "end")),
    // Work inside the prerendering, summed over its worker threads (so more than its wall time can hold).
    "cards drawn": spent("cards"),
    "pages compressed": spent("page compression"),
    "inline hashes": span(at("hashes", "start"), at("hashes", "end")),
    compression: span(at("compression", "start"), at("compression", "end")),
    finishing: span(at("finishing", "start"), at("finishing", "end")),
  };
}

/** Builds the project at `root` for `siteUrl` and says where the time and the memory went. */
export async function measureBuild(
  root: string,
  siteUrl: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<BuildPhases> {
  // The output is long (a line per prerendered file) and arrives in chunks: the timing lines are kept as they come.
  let timingLines = "";
  let partialLine = "";
  const keepTimingLines = (text: string) => {
    const lines = (partialLine + text).split("\n");
    partialLine = lines.pop() ?? "";
    timingLines += `${lines.filter((line) => line.startsWith(TIMING_LINE_PREFIX)).join("\n")}\n`;
  };
  let peak = 0;
  let cpuSeconds = 0;
  let pid: number | undefined;
  const poll = setInterval(() => {
    if (pid === undefined) return;
    const usage = treeUsage(pid);
    peak = Math.max(peak, usage.residentBytes);
    cpuSeconds = Math.max(cpuSeconds, usage.cpuSeconds);
  }, USAGE_POLL_MS);
  try {
    const { ms } = await runCommand("npm", ["run", "build"], {
      cwd: root,
      env: { ...process.env, SITE_URL: siteUrl, BUILD_DIR: buildsOf(root), BUILD_TIMINGS: "1", ...extraEnv },
      timeoutMs: BUILD_TIMEOUT_MS,
      onOutput: keepTimingLines,
      onStart: (child) => {
        pid = child.pid;
      },
    });
    const files = readdirSync(join(servedBuildOf(root), "client"), { recursive: true }) as string[];
    return {
      totalSeconds: round1(ms / 1000),
      cpuSeconds: round1(cpuSeconds),
      peakMemoryMB: Math.round(peak / 1024 / 1024),
      pages: files.filter((name) => name.endsWith("index.html")).length,
      cards: files.filter((name) => /^cards\/.*\.png$/.test(name)).length,
      phases: phaseSeconds(parseTimingLines(timingLines)),
    };
  } finally {
    clearInterval(poll);
  }
}

export type BuildRun = { label: string; notes: number } & BuildPhases;

const countNotes = (root: string) =>
  readdirSync(join(root, "content/notes")).filter((name) => name.endsWith(".md")).length;

/**
 * The builds the budgets speak of, each in its own copy of the project (own build cache): the
 * sample from nothing, again with nothing changed, again after one note's text changed (both keep
 * the bundles: only the content changed), again with no build served (the build cache kept);
 * then a full build (every page prerendered) of a copy filled up to each of `sizes` notes.
 */
export async function measureBuildRuns(
  projectRoot: string,
  siteUrl: string,
  sizes: number[],
  log: (message: string) => void,
): Promise<BuildRun[]> {
  const runs: BuildRun[] = [];
  const run = async (label: string, root: string) => {
    log(`build: ${label}`);
    runs.push({ label, notes: countNotes(root), ...(await measureBuild(root, siteUrl)) });
  };
  const sample = tempDir("build-sample");
  copyProject(projectRoot, sample);
  await run("sample, no cache", sample);
  await run("sample, nothing changed", sample);
  const notesDir = join(sample, "content/notes");
  const edited = join(
    notesDir,
    readdirSync(notesDir)
      .filter((name) => name.endsWith(".md"))
      .sort()[0] ?? "",
  );
  appendFileSync(edited, "\nOne more sentence, added by the benchmark.\n");
  await run("sample, one note changed", sample);
  for (const served of ["current", "previous", "versions"])
    rmSync(join(sample, "build", served), { recursive: true, force: true });
  await run("sample, clean build/", sample);
  rmSync(sample, { recursive: true, force: true });
  for (const size of sizes) {
    const root = tempDir(`build-${size}`);
    copyProject(projectRoot, root);
    generateNotes(root, size);
    await run(`${size.toLocaleString("en-US")} notes, no cache`, root);
    rmSync(root, { recursive: true, force: true });
  }
  return runs;
}
