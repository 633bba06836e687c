/**
 * The build's cache of drawn images (the cards and the covers' PNG copies), so a build draws only
 * what changed: each image is a file named after a hash of everything its pixels depend on, its
 * inputs and the drawing's version (every source file of catalogue/, the card route, and
 * package-lock.json for satori, resvg and the fonts). An entry can therefore never be stale: a
 * different input or different code is a different name. The build turns it on (the catalogue's
 * Vite plugin sets DRAWING_CACHE) and removes, when it ends, the entries it did not use, so the
 * folder holds one build's images. The server outside a build draws without it.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The environment variable that carries the cache's settings from the build into prerendering. */
const CACHE_VARIABLE = "DRAWING_CACHE";

type CacheSettings = {
  dir: string;
  /** A hash of the drawing code. */
  version: string;
  /** When the build started (ms): entries not used since are removed at its end. */
  since: number;
};

const hash = (parts: (string | Buffer)[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex");
};

/** What the drawings depend on besides their inputs: the drawing code and the locked package versions. */
export function drawingCodeVersion(projectRoot: string): string {
  const catalogueFiles = (readdirSync(join(projectRoot, "catalogue"), { recursive: true }) as string[])
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => join("catalogue", name));
  const files = [...catalogueFiles, "app/routes/cards.$.ts", "package-lock.json"];
  return hash(files.flatMap((file) => [file, readFileSync(join(projectRoot, file))]));
}

/**
 * Turns the cache on for this build process: a folder per content root under `cacheRoot`, so the
 * fixture site and the sample keep their own images.
 */
export function enableDrawingCache(projectRoot: string, contentRoot: string, cacheRoot: string): void {
  if (process.env[CACHE_VARIABLE] === "off") return;
  const settings: CacheSettings = {
    dir: join(cacheRoot, hash([contentRoot]).slice(0, 16)),
    version: drawingCodeVersion(projectRoot),
    since: Date.now(),
  };
  process.env[CACHE_VARIABLE] = JSON.stringify(settings);
}

function settings(): CacheSettings | undefined {
  const value = process.env[CACHE_VARIABLE];
  return value && value !== "off" ? (JSON.parse(value) as CacheSettings) : undefined;
}

/** The image drawn from `inputs` (JSON), from the cache when this build or an earlier one drew it. */
export async function cachedDrawing(
  kind: string,
  inputs: unknown,
  draw: () => Buffer | Promise<Buffer>,
): Promise<Buffer> {
  const cache = settings();
  if (!cache) return draw();
  const file = join(cache.dir, `${kind}-${hash([cache.version, JSON.stringify(inputs)])}`);
  try {
    const image = readFileSync(file);
    const now = new Date();
    utimesSync(file, now, now);
    return image;
  } catch {
    // Not drawn yet.
  }
  const image = await draw();
  mkdirSync(cache.dir, { recursive: true });
  // Written whole under another name first: a build stopped midway leaves no half image behind.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, image);
  renameSync(partial, file);
  return image;
}

/** Removes the entries this build did not use (a deleted page's card, an old drawing version). */
export function pruneDrawingCache(): void {
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
