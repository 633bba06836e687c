/**
 * The brotli and gzip copy beside each compressible file of the build, so the server never
 * compresses per request. The prerendering writes a page's copies as soon as it has rendered it
 * (scripts/prerender-worker.ts); the end of the build writes those of every other file.
 */
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { sep } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib";
import { cachedBuildOutput } from "../catalogue/build-cache.ts";
import { SEARCH_INDEX_PATH } from "../catalogue/site-search.ts";
import { writeNew } from "./build-files.ts";

const COMPRESSIBLE = /\.(html|js|css|svg|json|data|xml|atom|txt|webmanifest)$/;
/** Below this a compressed copy saves less than the extra bytes of headers. */
const MIN_COMPRESS_BYTES = 1024;

export const isCompressible = (file: string, size: number) => COMPRESSIBLE.test(file) && size >= MIN_COMPRESS_BYTES;

/**
 * Brotli's quality 11 costs about a second per megabyte: worth it for the hashed assets (code,
 * styles) and the search index, a few files every visitor downloads once and that change only with
 * the code or the whole catalogue. Everything else, one or two files per item of content, takes
 * quality 6: measured on the sample's pages, 25 times faster for 9 % more bytes (a note page:
 * 8.2 → 8.9 kB). Gzip, for the rare client without brotli, keeps zlib's default level: a quarter
 * of level 9's time for 1 % more bytes.
 */
const brotliQuality = (file: string) =>
  file.includes(`${sep}assets${sep}`) || file.endsWith(SEARCH_INDEX_PATH.replaceAll("/", sep)) ? 11 : 6;

/** A file rewritten too small to compress keeps no copies of what it was. */
function removeCopies(file: string): void {
  rmSync(`${file}.br`, { force: true });
  rmSync(`${file}.gz`, { force: true });
}
const brotliOptions = (quality: number, content: Buffer) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
});

/** A rendered page's copies, made at once on the calling thread (a prerendering worker's). */
export function writeCompressedCopiesNow(file: string, content: Buffer): void {
  if (!isCompressible(file, content.length)) {
    removeCopies(file);
    return;
  }
  writeNew(`${file}.br`, brotliCompressSync(content, brotliOptions(brotliQuality(file), content)));
  writeNew(`${file}.gz`, gzipSync(content));
}

/**
 * A file's copies on zlib's threads. Those at quality 11 come from the build cache when the file
 * is unchanged: recompressing them is what an edit would otherwise pay for.
 */
export async function writeCompressedCopies(file: string, content: Buffer): Promise<void> {
  if (!isCompressible(file, content.length)) {
    removeCopies(file);
    return;
  }
  const quality = brotliQuality(file);
  const sha256 = quality === 11 ? createHash("sha256").update(content).digest("hex") : "";
  const cached = (kind: string, inputs: object, make: () => Promise<Buffer>) =>
    quality === 11 ? cachedBuildOutput(kind, inputs, make) : make();
  const [br, gz] = await Promise.all([
    cached("br", { sha256, quality }, () => promisify(brotliCompress)(content, brotliOptions(quality, content))),
    cached("gz", { sha256 }, () => promisify(gzip)(content)),
  ]);
  writeNew(`${file}.br`, br);
  writeNew(`${file}.gz`, gz);
}
