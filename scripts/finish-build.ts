/**
 * Runs once after `react-router build`: writes the generated book covers (SVG, and the PNG copy a
 * note shares on social sites, drawn once and kept in the build cache), the site's icon
 * (catalogue/site-icon.ts), a brotli and a gzip copy of every compressible file (several at once, also
 * kept in the build cache), so the server never compresses per request, build/inline-hashes.json (the
 * inline script and style hashes of every page, for its Content-Security-Policy), build/site-url.txt: the
 * SITE_URL the pages were built for, build/owner.json: the owner's name and address in that content (the
 * server's default recipient, so production reads no content/ folder), and build/content-root.txt:
 * the folder whose content/ the pages hold (`npm start` rebuilds when either changes; the browser
 * tests build the fixture site). content-root.txt is written last: it marks a whole build.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip as gzipCompress } from "node:zlib";
import { cachedBuildOutput, pruneBuildCache } from "../catalogue/build-cache.ts";
import { timePhase } from "../catalogue/build-timing.ts";
import { COVER_IMAGE_SCALE, coverImagePath, drawsCoverImage } from "../catalogue/card.ts";
import { CONTENT_ROOT_FILE, OWNER_FILE } from "../catalogue/content-root.ts";
import { coverSvg, isGeneratedCover } from "../catalogue/cover.ts";
import { contentRoot, loadCatalogue } from "../catalogue/disk.ts";
import type { Catalogue } from "../catalogue/load.ts";
import { svgToPng } from "../catalogue/png.ts";
import { siteIconFiles } from "../catalogue/site-icon.ts";
import { siteUrlFromEnvironment } from "../catalogue/site-url.ts";
import { INLINE_HASHES_FILE, prerenderedInlineHashes } from "../server/http/security.ts";
import { NOT_FOUND_DATA_FILE, NOT_FOUND_PAGE_FILE } from "../server/http/static.ts";

const COMPRESSIBLE = /\.(html|js|css|svg|json|data|xml|atom|txt|webmanifest)$/;
/** Below this a compressed copy saves less than the extra bytes of headers. */
const MIN_COMPRESS_BYTES = 1024;

export async function finishClientBuild(root: string, buildDirectory: string): Promise<void> {
  const clientDir = join(buildDirectory, "client");
  // The same reading as the one catalogue/vite-plugin.ts baked into the pages, in the same process.
  const siteUrl = siteUrlFromEnvironment(process.env);
  const catalogue = loadCatalogue(contentRoot(root));
  await timePhase("covers", async () => {
    await writeCovers(catalogue, contentRoot(root), clientDir);
    for (const [sitePath, body] of siteIconFiles(contentRoot(root), catalogue.site)) {
      writeFileSync(join(clientDir, sitePath), body);
    }
  });
  await timePhase("hashes", () => writeInlineHashes(buildDirectory, clientDir));
  await timePhase("compression", () => precompress(clientDir));
  await timePhase("finishing", async () => {
    await writeNotFoundPage(buildDirectory, siteUrl);
    writeFileSync(join(buildDirectory, "site-url.txt"), `${siteUrl}\n`);
    writeFileSync(
      join(buildDirectory, OWNER_FILE),
      `${JSON.stringify({ name: catalogue.site.name, email: catalogue.site.email })}\n`,
    );
    // After the last cached output (the not-found page's compressed copies).
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

/** A path no route but the not-found one matches: its page is the same whatever the path. */
const UNKNOWN_PATH = "/not-found";

/**
 * The not-found page and its data (what a client-side navigation to an unknown path fetches),
 * rendered once from the server build, with their compressed copies, beside build/client (never
 * served with a 200 at a URL of their own): the server answers every unknown path with them and
 * a 404, so an odd path costs no render.
 */
async function writeNotFoundPage(buildDirectory: string, siteUrl: string): Promise<void> {
  const { createRequestHandler } = await import("react-router");
  const build = await import(/* @vite-ignore */ pathToFileURL(join(buildDirectory, "server/index.js")).href);
  const handle = createRequestHandler(build, "production");
  for (const [path, file] of [
    [UNKNOWN_PATH, NOT_FOUND_PAGE_FILE],
    [`${UNKNOWN_PATH}.data`, NOT_FOUND_DATA_FILE],
  ] as const) {
    const response = await handle(new Request(new URL(path, siteUrl)));
    if (response.status !== 404) throw new Error(`Rendering the not-found page (${path}) answered ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    writeFileSync(join(buildDirectory, file), body);
    await writeCompressedCopies(join(buildDirectory, file), body);
  }
}

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCompress);

/** `file`'s brotli and gzip copies; an unchanged file (most of them after an edit) takes them from the build cache. */
async function writeCompressedCopies(file: string, content: Buffer): Promise<void> {
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
}

/** Each file's brotli and gzip copies, several files at once: zlib compresses on libuv's worker threads. */
export async function precompress(dir: string): Promise<void> {
  const files = (readdirSync(dir, { recursive: true }) as string[])
    .map((name) => join(dir, name))
    .filter((file) => COMPRESSIBLE.test(file) && statSync(file).isFile());
  await forEachConcurrently(files, availableParallelism(), async (file) => {
    const content = await readFile(file);
    if (content.length < MIN_COMPRESS_BYTES) return;
    await writeCompressedCopies(file, content);
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
