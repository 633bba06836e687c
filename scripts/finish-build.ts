/**
 * Runs once after `react-router build`: writes the generated book covers (SVG, and the PNG copy a
 * note shares on social sites), the site's icon (catalogue/site-icon.ts), a brotli and a gzip copy of every
 * compressible file, so the server never compresses per request, build/inline-hashes.json (the
 * inline script and style hashes of every page, for its Content-Security-Policy), build/site-url.txt: the
 * SITE_URL the pages were built for, build/owner.json: the owner's name and address in that content (the
 * server's default recipient, so production reads no content/ folder), and build/content-root.txt:
 * the folder whose content/ the pages hold (`npm start` rebuilds when either changes; the browser
 * tests build the fixture site). content-root.txt is written last: it marks a whole build.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
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
  writeCovers(catalogue, contentRoot(root), clientDir);
  for (const [sitePath, body] of siteIconFiles(contentRoot(root), catalogue.site)) {
    writeFileSync(join(clientDir, sitePath), body);
  }
  writeInlineHashes(buildDirectory, clientDir);
  precompress(clientDir);
  await writeNotFoundPage(buildDirectory, siteUrl);
  writeFileSync(join(buildDirectory, "site-url.txt"), `${siteUrl}\n`);
  writeFileSync(
    join(buildDirectory, OWNER_FILE),
    `${JSON.stringify({ name: catalogue.site.name, email: catalogue.site.email })}\n`,
  );
  writeFileSync(join(buildDirectory, CONTENT_ROOT_FILE), `${contentRoot(root)}\n`);
}

function writeCovers(catalogue: Catalogue, root: string, clientDir: string): void {
  mkdirSync(join(clientDir, "covers"), { recursive: true });
  for (const note of catalogue.notes) {
    const generated = isGeneratedCover(note);
    const svg = generated ? coverSvg(note.name, note.author) : undefined;
    if (svg) writeFileSync(join(clientDir, note.photo), svg);
    if (drawsCoverImage(note)) {
      const source = svg ?? readFileSync(join(root, "public", note.photo), "utf8");
      writeFileSync(join(clientDir, coverImagePath(note.slug)), svgToPng(source, COVER_IMAGE_SCALE));
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
    writeCompressedCopies(join(buildDirectory, file), body);
  }
}

function writeCompressedCopies(file: string, content: Buffer): void {
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
}

function precompress(dir: string): void {
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = join(dir, name);
    if (!COMPRESSIBLE.test(file) || !statSync(file).isFile()) continue;
    const content = readFileSync(file);
    if (content.length < MIN_COMPRESS_BYTES) continue;
    writeCompressedCopies(file, content);
  }
}
