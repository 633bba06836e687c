// The drawn images (cards, covers' PNG copies), kept between builds under a name that hashes their
// inputs and the code that draws them: an entry can never be stale, and a build draws only what changed.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { orUndefined } from "../catalogue/present.ts";

export type ImageCache = { dir: string; drawing: string };

// Set by the build alone (site-plugin.ts): the server draws afresh.
declare const __IMAGE_CACHE__: ImageCache | undefined;
const buildCache = typeof __IMAGE_CACHE__ === "object" ? __IMAGE_CACHE__ : undefined;

const DRAWING_CODE = ["outputs/card.ts", "outputs/card-image.ts", "outputs/cover.ts", "outputs/png.ts"];
const DRAWING_PACKAGES = ["satori", "@resvg/resvg-js", "dejavu-fonts-ttf"];

const hash = (parts: (string | Buffer)[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex");
};

/** The cache of the site whose content is in `contentRoot`: the fixture site and the sample keep their own. */
export function imageCache(projectRoot: string, cacheRoot: string, contentRoot: string): ImageCache {
  const require = createRequire(join(projectRoot, "package.json"));
  return {
    dir: join(cacheRoot, hash([contentRoot]).slice(0, 16)),
    drawing: hash([
      process.version,
      ...DRAWING_CODE.map((file) => readFileSync(join(projectRoot, file))),
      ...DRAWING_PACKAGES.map((name) => `${name}@${require(`${name}/package.json`).version}`),
    ]),
  };
}

/** What `draw` makes of `inputs`, from the cache when an earlier build drew it. */
export async function cachedImage(
  kind: string,
  inputs: unknown,
  draw: () => Buffer | Promise<Buffer>,
  cache = buildCache,
): Promise<Buffer> {
  if (!cache) return draw();
  const file = join(cache.dir, `${kind}-${hash([cache.drawing, JSON.stringify(inputs)])}.png`);
  const cached = orUndefined(() => {
    const image = readFileSync(file);
    const now = new Date();
    utimesSync(file, now, now);
    return image;
  });
  if (cached) return cached;
  const image = await draw();
  mkdirSync(cache.dir, { recursive: true });
  // Renamed whole into place: a build stopped midway leaves no half file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, image);
  renameSync(partial, file);
  return image;
}

/** Removes the entries a build that started at `since` did not use: a deleted note's card, an older drawing. */
export function pruneImageCache({ dir }: ImageCache, since: number): void {
  for (const name of orUndefined(() => readdirSync(dir)) ?? []) {
    const file = join(dir, name);
    if (statSync(file).mtimeMs < since) rmSync(file, { force: true });
  }
}
