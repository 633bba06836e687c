/**
 * The builds the benchmark measures: the project itself (timed), and a temporary copy of it with
 * 10,000 book notes whose prerender is limited to the list pages (PRERENDER_ONLY).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { generateNotes } from "./generate-notes.ts";
import { runCommand, tempDir } from "./processes.ts";

const BUILD_TIMEOUT_MS = 5 * 60_000;

/** `npx react-router build` in `root`, for pages served at `siteUrl`; resolves with its duration. */
export async function buildSite(root: string, siteUrl: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<number> {
  const { ms } = await runCommand("npx", ["react-router", "build"], {
    cwd: root,
    env: { ...process.env, SITE_URL: siteUrl, ...extraEnv },
    timeoutMs: BUILD_TIMEOUT_MS,
  });
  return ms;
}

/** What a build needs; tests/, bench/, build/ and data/ stay behind. */
const COPIED = ["app", "catalogue", "content", "public", "server", "scripts"];
const CONFIG_FILE = /^(?:[\w.-]+\.ts|tsconfig\.json|package(?:-lock)?\.json)$/;
/** Caches that tools write inside node_modules: the copy gets its own. */
const NOT_LINKED = new Set([".vite", ".vite-temp", ".cache"]);

export type LargeCopy = { root: string; generated: number; buildMs: number };

/**
 * Copies the project to a temporary folder (removed on exit), fills content/notes up to `total`
 * notes and builds it with only `prerenderOnly` prerendered.
 */
export async function buildLargeCopy(
  projectRoot: string,
  total: number,
  siteUrl: string,
  prerenderOnly: string[],
): Promise<LargeCopy> {
  const root = tempDir("large-site");
  for (const dir of COPIED) {
    if (existsSync(join(projectRoot, dir))) cpSync(join(projectRoot, dir), join(root, dir), { recursive: true });
  }
  for (const file of readdirSync(projectRoot)) {
    if (CONFIG_FILE.test(file)) cpSync(join(projectRoot, file), join(root, file));
  }
  // node_modules: a folder of links to the project's packages, so the tools' caches stay in the copy.
  mkdirSync(join(root, "node_modules"));
  for (const entry of readdirSync(join(projectRoot, "node_modules"))) {
    if (!NOT_LINKED.has(entry))
      symlinkSync(join(projectRoot, "node_modules", entry), join(root, "node_modules", entry));
  }
  const generated = generateNotes(join(root, "content/notes"), join(root, "public"), total);
  const buildMs = await buildSite(root, siteUrl, { PRERENDER_ONLY: prerenderOnly.join(",") });
  return { root, generated, buildMs };
}
