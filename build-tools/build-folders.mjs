// Where builds live and the one switch between them (docs/decisions/atomic-builds.md). Plain JavaScript:
// `npm run build` and `npm start` use it before any build exists.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { orUndefined } from "../catalogue/present.ts";
import { claim, holderOf, mark, release, runningMarks, unmark } from "../services/pid-files.mjs";

export const buildRoot = (projectRoot, environment = process.env) =>
  resolve(projectRoot, environment.BUILD_DIR || "build");

export const servedBuild = (root) => join(root, "current");

/** The builds' cache, written by builds alone: the one place besides the builds a build writes. */
export const buildCacheDir = (root) => join(root, "cache");

/** The builds' folder that holds `build` (a folder of versions/), or undefined for a build made elsewhere. */
export const buildRootOf = (build) => (basename(dirname(build)) === "versions" ? resolve(build, "../..") : undefined);

export const importFromBuild = (build, path) => import(/* @vite-ignore */ pathToFileURL(join(build, path)).href);

export const currentBuild = (root) => realOrUndefined(servedBuild(root));

/** Waits for any other build of `root` to end; `finish()` serves what was written in `bundles` and prunes the builds no one serves. */
export async function startBuild(projectRoot, root) {
  const lock = join(root, "build.lock");
  mkdirSync(root, { recursive: true });
  linkPackages(projectRoot, root);
  let told = false;
  while (!claim(lock)) {
    if (!told) console.log(`Waiting for the build of process ${holderOf(lock)} to end…`);
    told = true;
    await sleep(250);
  }
  const stamp = new Date().toISOString().replace(/[-:.]/g, "");
  const folder = join(root, "versions", `${stamp}-${process.pid}`);
  // React Router records its output folder in the server bundle: the same one for every build.
  const bundles = join(root, "bundles");
  rmSync(bundles, { recursive: true, force: true });
  mkdirSync(join(root, "versions"), { recursive: true });
  // Whatever ends this process before `finish` (a content error exits at once) leaves nothing behind.
  const abandon = () => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(bundles, { recursive: true, force: true });
    release(lock);
  };
  process.once("exit", abandon);
  return {
    bundles,
    finish() {
      renameSync(bundles, folder);
      switchTo(root, folder);
      pruneBuilds(root);
      process.off("exit", abandon);
      release(lock);
    },
  };
}

/** The server bundle imports the project's packages: a builds' folder outside the project links them. */
function linkPackages(projectRoot, root) {
  if (!relative(projectRoot, root).startsWith("..")) return;
  try {
    symlinkSync(join(projectRoot, "node_modules"), join(root, "node_modules"));
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
  }
  writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
}

/** Points `name` at `target` in one rename: a reader sees the old link or the new one, never none. */
function relink(root, name, target) {
  const made = join(root, `.${name}.${process.pid}`);
  rmSync(made, { force: true });
  symlinkSync(target, made);
  renameSync(made, join(root, name));
}

function switchTo(root, folder) {
  const before = orUndefined(() => readlinkSync(servedBuild(root)));
  if (before) relink(root, "previous", before);
  relink(root, "current", relative(root, folder));
}

function pruneBuilds(root) {
  const kept = new Set([currentBuild(root), realOrUndefined(join(root, "previous"))]);
  for (const served of runningMarks(join(root, "serving")).values())
    kept.add(realOrUndefined(join(root, "versions", served)));
  const versions = join(root, "versions");
  for (const name of readdirSync(versions)) {
    const folder = join(versions, name);
    if (!kept.has(realOrUndefined(folder))) rmSync(folder, { recursive: true, force: true });
  }
}

const realOrUndefined = (path) => orUndefined(() => realpathSync(path));

/** Says that this process serves `build`, so that no build removes it; a read-only BUILD_DIR is fine. */
export function markServing(build) {
  const root = buildRootOf(build);
  if (root) mark(join(root, "serving"), basename(build));
}

export function unmarkServing(build) {
  const root = buildRootOf(build);
  if (root) unmark(join(root, "serving"));
}

/** The one line a failed build ends with: what failed and the file it names, never a stack. */
export function buildFailureLine(error) {
  const what = error instanceof Error ? error.message : String(error);
  return `Build failed, the site still serves the previous build: ${what.split("\n")[0]}`;
}

/** What a build was made for, written last: its presence means a whole build. */
export const BUILD_INFO_FILE = "build.json";

/** @returns {{ siteUrl: string, contentRoot: string, owner: { name: string, email: string } } | undefined} */
export const readBuildInfo = (build) =>
  orUndefined(() => JSON.parse(readFileSync(join(build, BUILD_INFO_FILE), "utf8")));

export function writeBuildInfo(build, info) {
  writeFileSync(join(build, BUILD_INFO_FILE), `${JSON.stringify(info)}\n`);
}
