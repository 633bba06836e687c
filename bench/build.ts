/**
 * The builds the benchmark measures: the project itself (timed), and a copy of it with 10,000 book
 * notes, also built by the fast-typing browser test (tests/browser/typing-at-scale.spec.ts).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildRoot, currentBuild } from "../build-tools/build-folders.mjs";
import { generateNotes } from "./generate-notes.ts";
import { runCommand } from "./processes.ts";

const BUILD_TIMEOUT_MS = 15 * 60_000;

const PROJECT = resolve(import.meta.dirname, "..");

/** The builds' folder of the project at `root`: BUILD_DIR for this project, build/ in a copy of it. */
export const buildsOf = (root: string) => (resolve(root) === PROJECT ? buildRoot(root) : join(root, "build"));

/** The build served in the project at `root` (build-tools/build-folders.mjs). */
export const servedBuildOf = (root: string) => currentBuild(buildsOf(root)) as string;

/** `npm run build` in `root`, for pages served at `siteUrl`; resolves with its duration. */
export async function buildSite(root: string, siteUrl: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<number> {
  const { ms } = await runCommand("npm", ["run", "build"], {
    cwd: root,
    env: { ...process.env, SITE_URL: siteUrl, BUILD_DIR: buildsOf(root), ...extraEnv },
    timeoutMs: BUILD_TIMEOUT_MS,
  });
  return ms;
}

/** What a build needs; tests/, bench/, build/ and data/ stay behind. */
const COPIED = [
  "app",
  "build-tools",
  "catalogue",
  "content",
  "host",
  "outputs",
  "public",
  "rules",
  "scripts",
  "services",
];
const CONFIG_FILE = /^(?:[\w.-]+\.ts|vite\.build\.cjs|tsconfig\.json|package(?:-lock)?\.json)$/;
/** Caches that tools write inside node_modules: the copy gets its own. */
const NOT_LINKED = new Set([".vite", ".vite-temp", ".cache"]);

export type LargeCopy = { root: string; generated: number; buildMs: number };

export type LargeCopyOptions = {
  projectRoot: string;
  /** An empty folder for the copy; the caller removes it. */
  root: string;
  total: number;
  siteUrl: string;
  /** Content to start from instead of the project's: a content folder, and images laid over public/. */
  from?: { content: string; public: string };
  /** Only these pages prerendered, by the copy's own React Router configuration; every page otherwise. */
  prerender?: string[];
};

/** Copies the project into `root`, fills content/notes up to `total` notes and builds it. */
export async function buildLargeCopy(options: LargeCopyOptions): Promise<LargeCopy> {
  const { root } = options;
  copyProject(options.projectRoot, root, options.from);
  if (options.prerender) limitPrerender(root, options.prerender);
  const generated = generateNotes(root, options.total);
  const buildMs = await buildSite(root, options.siteUrl);
  return { root, generated, buildMs };
}

/** The copy's React Router configuration, with only `paths` prerendered: a test's copy needs no 10,000 pages. */
function limitPrerender(root: string, paths: string[]): void {
  renameSync(join(root, "react-router.config.ts"), join(root, "react-router.site.ts"));
  writeFileSync(
    join(root, "react-router.config.ts"),
    `import site from "./react-router.site.ts";\nexport default { ...site, prerender: ${JSON.stringify(paths)} };\n`,
  );
}

/** Copies what a build needs into the empty folder `root`, with node_modules linked and the tools' caches its own. */
export function copyProject(projectRoot: string, root: string, from?: LargeCopyOptions["from"]): void {
  for (const dir of COPIED) {
    if (existsSync(join(projectRoot, dir))) cpSync(join(projectRoot, dir), join(root, dir), { recursive: true });
  }
  if (from) {
    rmSync(join(root, "content"), { recursive: true });
    cpSync(from.content, join(root, "content"), { recursive: true });
    cpSync(from.public, join(root, "public"), { recursive: true });
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
}
