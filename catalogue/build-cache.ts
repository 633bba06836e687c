/**
 * The build's cache of what is slow to make and depends on little: the drawn images (the cards and
 * the covers' PNG copies) and the compressed copies of the files. So a build makes only what
 * changed: each output is a file named after a hash of everything it depends on, its inputs and
 * the code's version (every source file of catalogue/, the card route, package-lock.json for
 * satori, resvg and the fonts, and Node's version for zlib). An entry can therefore never be
 * stale: a different input or different code is a different name. The build's last step turns it
 * on (setting BUILD_CACHE, which its prerendering workers read; BUILD_CACHE=off turns it off) and
 * removes, when it ends, the entries it did not use, so the folder (cache/ of BUILD_DIR, which a
 * read-only deployment keeps writable) holds one build's outputs. The server outside a build
 * makes everything afresh.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildCacheDir, buildRoot } from "./build-folders.mjs";

/** The environment variable that carries the cache's settings from the build into prerendering. */
const CACHE_VARIABLE = "BUILD_CACHE";

type CacheSettings = {
  dir: string;
  /** A hash of the code that makes the outputs. */
  version: string;
  /** When the build started (ms): entries not used since are removed at its end. */
  since: number;
};

const hash = (parts: (string | Buffer)[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex");
};

/** What the outputs depend on besides their inputs: the code, the locked package versions and Node's. */
export function buildCodeVersion(projectRoot: string): string {
  const catalogueFiles = (readdirSync(join(projectRoot, "catalogue"), { recursive: true }) as string[])
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => join("catalogue", name));
  const files = [...catalogueFiles, "app/routes/cards.$.ts", "package-lock.json"];
  return hash([process.version, ...files.flatMap((file) => [file, readFileSync(join(projectRoot, file))])]);
}

/**
 * Turns the cache on for this build process: a folder per content root under `cacheRoot`, so the
 * fixture site and the sample keep their own outputs.
 */
export function enableBuildCache(
  projectRoot: string,
  contentRoot: string,
  cacheRoot = buildCacheDir(buildRoot(projectRoot)),
): void {
  if (process.env[CACHE_VARIABLE] === "off") return;
  const settings: CacheSettings = {
    dir: join(cacheRoot, hash([contentRoot]).slice(0, 16)),
    version: buildCodeVersion(projectRoot),
    since: Date.now(),
  };
  process.env[CACHE_VARIABLE] = JSON.stringify(settings);
}

function settings(): CacheSettings | undefined {
  const value = process.env[CACHE_VARIABLE];
  return value && value !== "off" ? (JSON.parse(value) as CacheSettings) : undefined;
}

/** What `make` makes from `inputs` (JSON), from the cache when this build or an earlier one made it. */
export async function cachedBuildOutput(
  kind: string,
  inputs: unknown,
  make: () => Buffer | Promise<Buffer>,
): Promise<Buffer> {
  const cache = settings();
  if (!cache) return make();
  const file = join(cache.dir, `${kind}-${hash([cache.version, JSON.stringify(inputs)])}`);
  try {
    const output = readFileSync(file);
    const now = new Date();
    utimesSync(file, now, now);
    return output;
  } catch {
    // Not made yet.
  }
  const output = await make();
  mkdirSync(cache.dir, { recursive: true });
  // Written whole under another name first: a build stopped midway leaves no half file behind.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, output);
  renameSync(partial, file);
  return output;
}

/** Removes the entries this build did not use (a deleted page's card, an old code version). */
export function pruneBuildCache(): void {
  const cache = settings();
  if (!cache) return;
  let names: string[];
  try {
    names = readdirSync(cache.dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(cache.dir, name);
    if (statSync(file).mtimeMs < cache.since) rmSync(file, { force: true });
  }
}
