// One `npm run build` measured: its wall time, and its process tree's CPU time and peak memory, polled from /proc.
import { appendFileSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { installAstroPackages, writeAstroBlog } from "./astro-blog.ts";
import { buildsOf, copyProject, servedBuildOf } from "./build.ts";
import { generateNotes } from "./generate-notes.ts";
import { runCommand, tempDir } from "./processes.ts";
import { reason, round1 } from "./stats.ts";

const BUILD_TIMEOUT_MS = 15 * 60_000;
const USAGE_POLL_MS = 250;

export type BuildPhases = {
  totalSeconds: number;
  /** CPU time of the build's processes, polled: on a shared machine it says more than the wall clock. */
  cpuSeconds: number;
  peakMemoryMB: number;
  pages: number;
  cards: number;
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

/** `npm run build` in `cwd`, whose pages end up in `pagesDir()`. */
export type Build = { cwd: string; env: NodeJS.ProcessEnv; pagesDir: () => string };

/** Runs the build and says what it cost. */
export async function measureBuild({ cwd, env, pagesDir }: Build): Promise<BuildPhases> {
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
      cwd,
      env: { ...process.env, ...env },
      timeoutMs: BUILD_TIMEOUT_MS,
      onStart: (child) => {
        pid = child.pid;
      },
    });
    const files = readdirSync(pagesDir(), { recursive: true }) as string[];
    return {
      totalSeconds: round1(ms / 1000),
      cpuSeconds: round1(cpuSeconds),
      peakMemoryMB: Math.round(peak / 1024 / 1024),
      pages: files.filter((name) => name.endsWith("index.html")).length,
      cards: files.filter((name) => /^cards\/.*\.png$/.test(name)).length,
    };
  } finally {
    clearInterval(poll);
  }
}

export type BuildRun = { label: string; notes: number } & BuildPhases;

/** Astro's blog template is built from the notes of the copy of this size, right after it. */
const ASTRO_POSTS = 2000;
export const ASTRO_LABEL = `Astro blog template, ${ASTRO_POSTS.toLocaleString("en-US")} posts`;

export type BuildRuns = {
  runs: BuildRun[];
  /** Why the Astro blog has no run, when it has none. */
  astroMissing?: string;
};

const countNotes = (root: string) =>
  readdirSync(join(root, "content/notes")).filter((name) => name.endsWith(".md")).length;

/**
 * The builds the budgets speak of, each in its own copy of the project (own image cache): the
 * sample from nothing, again with nothing changed, again after one note's text changed, again with
 * no build served (the image cache kept); then a copy filled up to each of `sizes` notes, the one
 * of 2,000 followed by Astro's blog template made from the same notes.
 */
export async function measureBuildRuns(
  projectRoot: string,
  siteUrl: string,
  sizes: number[],
  log: (message: string) => void,
): Promise<BuildRuns> {
  const runs: BuildRun[] = [];
  const run = async (label: string, notes: number, build: Build) => {
    log(`build: ${label}`);
    runs.push({ label, notes, ...(await measureBuild(build)) });
  };
  const ours = (label: string, root: string) =>
    run(label, countNotes(root), {
      cwd: root,
      env: { SITE_URL: siteUrl, BUILD_DIR: buildsOf(root) },
      pagesDir: () => join(servedBuildOf(root), "client"),
    });
  let astroMissing = sizes.includes(ASTRO_POSTS) ? undefined : `BENCH_BUILD_NOTES has no ${ASTRO_POSTS}`;
  // Installed first, so that nothing comes between the two builds compared.
  if (!astroMissing)
    await installAstroPackages(log).catch((error) => {
      astroMissing = `its packages did not install: ${reason(error)}`;
      log(`build: Astro's packages did not install: ${error instanceof Error ? error.message : String(error)}`);
    });
  const sample = tempDir("build-sample");
  copyProject(projectRoot, sample);
  await ours("sample, no cache", sample);
  await ours("sample, nothing changed", sample);
  const notesDir = join(sample, "content/notes");
  const edited = join(
    notesDir,
    readdirSync(notesDir)
      .filter((name) => name.endsWith(".md"))
      .sort()[0] ?? "",
  );
  appendFileSync(edited, "\nOne more sentence, added by the benchmark.\n");
  await ours("sample, one note changed", sample);
  for (const served of ["current", "previous", "versions"])
    rmSync(join(sample, "build", served), { recursive: true, force: true });
  await ours("sample, clean build/", sample);
  rmSync(sample, { recursive: true, force: true });
  for (const size of sizes) {
    const root = tempDir(`build-${size}`);
    copyProject(projectRoot, root);
    generateNotes(root, size);
    await ours(`${size.toLocaleString("en-US")} notes, no cache`, root);
    if (size === ASTRO_POSTS && !astroMissing) {
      const blog = tempDir("astro-blog");
      try {
        const env = { SITE_URL: siteUrl, ASTRO_TELEMETRY_DISABLED: "1" };
        await run(ASTRO_LABEL, writeAstroBlog(blog, root), { cwd: blog, env, pagesDir: () => join(blog, "dist") });
      } catch (error) {
        astroMissing = `its build failed: ${reason(error)}`;
        log(`build: the Astro blog failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      rmSync(blog, { recursive: true, force: true });
    }
    rmSync(root, { recursive: true, force: true });
  }
  return { runs, astroMissing };
}
