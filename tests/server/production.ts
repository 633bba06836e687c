/**
 * The real production server for the tests that need it whole: `npm start`'s own command on the
 * real build of the fixture site in the tests' build folder (tests/support/test-build.ts), in a
 * child process, on a free port. `npm start` builds first when the build is missing or stale;
 * test files run in parallel, so one start at a time holds a lock until its server listens, and
 * the others find the build made.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll } from "vitest";
import { readBuildInfo } from "../../build-tools/build-folders.mjs";
import { FIXTURE_CONTENT_ROOT, fixtureBuildProblem } from "../browser/fixture-site.ts";
import { TEST_BUILD, TEST_BUILD_ROOT } from "../support/test-build.ts";
import { childProcessEnv, makeTempDir, sleep, waitFor } from "./helpers.ts";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** The build the production server serves. */
export const servedBuild = TEST_BUILD;

/** `npm start` as node arguments, read from package.json so that the tests follow it. */
function startCommand(): string[] {
  const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { start: string } })
    .scripts;
  const [program, ...args] = scripts.start.split(" ");
  return program === "node" ? args : [program as string, ...args];
}

/** The SITE_URL the current build was made for, so that starting does not rebuild for another. */
export function builtSiteUrl(): string {
  return readBuildInfo(servedBuild)?.siteUrl ?? "http://localhost:3000";
}

const LOCK = join(tmpdir(), `creator-site-start-${Buffer.from(TEST_BUILD_ROOT).toString("hex").slice(-24)}.lock`);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function withStartLock<T>(work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, "pid"), String(process.pid));
      break;
    } catch {
      const holder = Number(existsSync(join(LOCK, "pid")) ? readFileSync(join(LOCK, "pid"), "utf8") : Number.NaN);
      if (Number.isInteger(holder) && !isAlive(holder)) rmSync(LOCK, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

export type ProductionServer = {
  /** The address the server printed ("Serving on http://127.0.0.1:PORT"). */
  origin: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then the exit code (SIGKILL after 15 s). */
  stop(): Promise<number | null>;
};

/** The variables `npm start` gets besides PATH and HOME: the fixture site, in the tests' build folder. */
const fixtureSite = () => ({
  SITE_URL: builtSiteUrl(),
  // The fixture site, as in the browser tests: one build serves both, and the owner's content is never under test.
  CONTENT_ROOT: FIXTURE_CONTENT_ROOT,
  BUILD_DIR: TEST_BUILD_ROOT,
});

/** Builds the fixture site when the tests' build folder has none, as `npm start` would. */
export function ensureFixtureBuild(): Promise<void> {
  return withStartLock(async () => {
    if (!fixtureBuildProblem()) return;
    const built = spawnSync(process.execPath, ["build-tools/build.mjs"], {
      cwd: root,
      env: { ...childProcessEnv(), ...fixtureSite() },
      encoding: "utf8",
    });
    if (built.status !== 0) throw new Error(`The fixture site's build failed:\n${built.stdout}${built.stderr}`);
  });
}

/**
 * Starts `npm start` with only these variables (and PATH, HOME): PORT 0, HOST 127.0.0.1 and the
 * build's SITE_URL unless given. DATA_DIR is required: each test has its own.
 */
export function startProductionServer(env: Record<string, string> & { DATA_DIR: string }): Promise<ProductionServer> {
  return withStartLock(() => startServerIn(root, { ...fixtureSite(), ...env }));
}

/** `npm start` in the project at `projectRoot` (a copy of this one) with only these variables, PATH, HOME, PORT 0 and HOST 127.0.0.1. */
export async function startServerIn(projectRoot: string, env: Record<string, string>): Promise<ProductionServer> {
  let output = "";
  const child = spawn(process.execPath, startCommand(), {
    cwd: projectRoot,
    env: { ...childProcessEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  await waitFor(() => child.exitCode !== null || /Serving on http:\/\/\S+:\d+/.test(output), {
    timeoutMs: 280_000,
    what: "the production server to listen",
  });
  if (child.exitCode !== null) throw new Error(`The production server exited (${child.exitCode}):\n${output}`);
  const origin = (/Serving on (http:\/\/\S+:\d+)/.exec(output) as RegExpExecArray)[1] as string;
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return {
    origin,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await exited;
      clearTimeout(kill);
      return code;
    },
  };
}

/**
 * The served build's server bundle, with a count of the pages it renders (not its resource routes'
 * answers); a page whose URL `hold` matches waits, once rendered, for what it returns.
 */
export async function countingServedBuild(
  hold: (url: string) => Promise<void> | undefined = () => undefined,
): Promise<{ build: ServerBuild; renders: () => number }> {
  const build = (await import(pathToFileURL(join(servedBuild, "server/index.js")).href)) as ServerBuild;
  const renderPage = build.entry.module.default;
  let renders = 0;
  const counted: ServerBuild = {
    ...build,
    entry: {
      module: {
        ...build.entry.module,
        default: async (...args) => {
          renders++;
          await hold(args[0].url);
          return renderPage(...args);
        },
      },
    },
  };
  return { build: counted, renders: () => renders };
}

/** One production server for the whole test file, on a fresh DATA_DIR without a rate limit; gives its origin. */
export function serverForThisFile(): () => string {
  let temp: ReturnType<typeof makeTempDir> | undefined;
  let server: ProductionServer | undefined;
  beforeAll(async () => {
    temp = makeTempDir();
    server = await startProductionServer({ DATA_DIR: temp.path, RATE_LIMIT: "0" });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    temp?.remove();
  });
  return () => {
    if (!server) throw new Error("the production server did not start");
    return server.origin;
  };
}
