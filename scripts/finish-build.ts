/**
 * Runs once after `react-router build`: writes the generated book covers (SVG, and the PNG copy a
 * note shares on social sites, drawn once and kept in the build cache), a brotli and a gzip copy
 * of every compressible file (several at once, also kept in the build cache), so the server never compresses per request, build/inline-hashes.json (the
 * inline script and style hashes of every page, for its Content-Security-Policy), build/site-url.txt: the
 * SITE_URL the pages were built for, build/owner-email.txt: the owner's address in that content (the
 * server's default recipient, so production reads no content/ folder), and build/content-root.txt:
 * the folder whose content/ the pages hold (`npm start` rebuilds when either changes; the browser
 * tests build the fixture site). content-root.txt is written last: it marks a whole build.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip as gzipCompress } from "node:zlib";
import { cachedBuildOutput, pruneBuildCache } from "../catalogue/build-cache.ts";
import { timePhase } from "../catalogue/build-timing.ts";
import { COVER_IMAGE_SCALE, coverImagePath, drawsCoverImage } from "../catalogue/card.ts";
import { CONTENT_ROOT_FILE, OWNER_EMAIL_FILE } from "../catalogue/content-root.ts";
import { coverSvg, isGeneratedCover } from "../catalogue/cover.ts";
import { contentRoot, loadCatalogue } from "../catalogue/disk.ts";
import type { Catalogue } from "../catalogue/load.ts";
import { svgToPng } from "../catalogue/png.ts";
import { siteUrlFromEnvironment } from "../catalogue/site-url.ts";
import { INLINE_HASHES_FILE, prerenderedInlineHashes } from "../server/http/security.ts";

const COMPRESSIBLE = /\.(html|js|css|svg|json|data|xml|atom|txt|webmanifest)$/;
/** Below this a compressed copy saves less than the extra bytes of headers. */
const MIN_COMPRESS_BYTES = 1024;

export async function finishClientBuild(root: string, buildDirectory: string): Promise<void> {
  const clientDir = join(buildDirectory, "client");
  // The same reading as the one catalogue/vite-plugin.ts baked into the pages, in the same process.
  const siteUrl = siteUrlFromEnvironment(process.env);
  const catalogue = loadCatalogue(contentRoot(root));
  await timePhase("covers", () => writeCovers(catalogue, contentRoot(root), clientDir));
  await timePhase("hashes", () => writeInlineHashes(buildDirectory, clientDir));
  await timePhase("compression", () => precompress(clientDir));
  await timePhase("finishing", () => {
    writeFileSync(join(buildDirectory, "site-url.txt"), `${siteUrl}\n`);
    writeFileSync(join(buildDirectory, OWNER_EMAIL_FILE), `${catalogue.site.email}\n`);
    pruneBuildCache();
    writeFileSync(join(buildDirectory, CONTENT_ROOT_FILE), `${contentRoot(root)}\n`);
  });
}

export async function writeCovers(catalogue: Catalogue, root: string, clientDir: string): Promise<void> {
  mkdirSync(join(clientDir, "covers"), { recursive: true });
  for (const note of catalogue.notes) {
    const generated = isGeneratedCover(note);
    const svg = generated ? coverSvg(note.name, note.author) : undefined;
    if (svg) writeFileSync(join(clientDir, note.photo), svg);
    if (drawsCoverImage(note)) {
      const source = svg ?? readFileSync(join(root, "public", note.photo), "utf8");
      const png = await cachedBuildOutput("cover", { source, scale: COVER_IMAGE_SCALE }, () =>
        svgToPng(source, COVER_IMAGE_SCALE),
      );
      writeFileSync(join(clientDir, coverImagePath(note.slug)), png);
    }
  }
}

/** The inline script and style hashes of every prerendered page, for the Content-Security-Policy the server sends with it. */
function writeInlineHashes(buildDirectory: string, clientDir: string): void {
  const pages = (readdirSync(clientDir, { recursive: true }) as string[]).filter((name) => name.endsWith(".html"));
  writeFileSync(join(buildDirectory, INLINE_HASHES_FILE), JSON.stringify(prerenderedInlineHashes(clientDir, pages)));
}

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCompress);

/** Each file's brotli and gzip copies, several files at once: zlib compresses on libuv's worker threads. */
export async function precompress(dir: string): Promise<void> {
  const files = (readdirSync(dir, { recursive: true }) as string[])
    .map((name) => join(dir, name))
    .filter((file) => COMPRESSIBLE.test(file) && statSync(file).isFile());
  await forEachConcurrently(files, availableParallelism(), async (file) => {
    const content = await readFile(file);
    if (content.length < MIN_COMPRESS_BYTES) return;
    // An unchanged file (most of them after an edit) takes its copies from the build cache.
    const inputs = { sha256: createHash("sha256").update(content).digest("hex") };
    const [br, gz] = await Promise.all([
      cachedBuildOutput("br", inputs, () =>
        brotli(content, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
        }),
      ),
      cachedBuildOutput("gz", inputs, () => gzip(content, { level: 9 })),
    ]);
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  });
}

/** Runs `work` on every item, at most `limit` at a time. */
async function forEachConcurrently<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) await work(items[index] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
