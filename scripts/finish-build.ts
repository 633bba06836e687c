/**
 * Runs once after `react-router build`: prerenders every page and card (scripts/prerender.ts),
 * writes the generated book covers (SVG, and the PNG copy a note shares on social sites, drawn once
 * and kept in the build cache), the site's icon (catalogue/site-icon.ts), a brotli and a gzip copy
 * of every compressible file (scripts/compressed-copies.ts), build/inline-hashes.json (the
 * inline script and style hashes of every page, for its Content-Security-Policy), build/site-url.txt: the
 * SITE_URL the pages were built for, build/owner.json: the owner's name and address in that content (the
 * server's default recipient, so production reads no content/ folder), and build/content-root.txt:
 * the folder whose content/ the pages hold (`npm start` rebuilds when either changes; the browser
 * tests build the fixture site). content-root.txt is written last: it marks a whole build.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join, relative, sep } from "node:path";
import { cachedBuildOutput, pruneBuildCache } from "../catalogue/build-cache.ts";
import { timePhase } from "../catalogue/build-timing.ts";
import {
  COVER_IMAGE_SCALE,
  cardPath,
  cardTitles,
  coverImagePath,
  drawsCoverImage,
  quoteCards,
} from "../catalogue/card.ts";
import { CONTENT_ROOT_FILE, OWNER_FILE } from "../catalogue/content-root.ts";
import { coverSvg, isGeneratedCover } from "../catalogue/cover.ts";
import { contentRoot, loadCatalogue } from "../catalogue/disk.ts";
import { type Catalogue, RESERVED_UPDATE_SLUGS } from "../catalogue/load.ts";
import { svgToPng } from "../catalogue/png.ts";
import { siteIconFiles } from "../catalogue/site-icon.ts";
import { siteUrlFromEnvironment } from "../catalogue/site-url.ts";
import { derivedPagePaths } from "../catalogue/sitemap.ts";
import { INLINE_HASHES_FILE, type InlineHashes, prerenderedInlineHashes } from "../server/http/security.ts";
import { writeCompressedCopies } from "./compressed-copies.ts";
import { prerender, staticPaths } from "./prerender.ts";

/** Every page, its data and its card; the newsletter's per-visitor pages excepted. */
function sitePaths(catalogue: Catalogue, routes: Parameters<typeof staticPaths>[0]): string[] {
  // The benchmark's 10,000-note copy of the site, for tests of its lists only, prerenders just those.
  const only = process.env.PRERENDER_ONLY;
  if (only) return only.split(",");
  const cards = [...cardTitles(catalogue).keys(), ...quoteCards(catalogue, "").keys()].map(cardPath);
  // The newsletter's confirm and unsubscribe pages answer per visitor (their token): never prerendered.
  const perRequest = new Set(RESERVED_UPDATE_SLUGS.map((slug) => `/updates/${slug}`));
  const pages = staticPaths(routes).filter((path) => !perRequest.has(path));
  const items = [...catalogue.all, ...catalogue.updates].map((item) => item.path);
  return [...new Set([...pages, ...items, ...derivedPagePaths(catalogue), ...cards])];
}

export async function finishClientBuild(
  root: string,
  buildDirectory: string,
  routes: Parameters<typeof staticPaths>[0],
): Promise<void> {
  const clientDir = join(buildDirectory, "client");
  // The same reading as the one catalogue/vite-plugin.ts baked into the pages, in the same process.
  const siteUrl = siteUrlFromEnvironment(process.env);
  const { paths, owner } = await fromCatalogue(root, clientDir, routes);
  const prerendered = await timePhase("prerender", () => prerender(join(buildDirectory, "server"), clientDir, paths));
  await timePhase("hashes", () => writeInlineHashes(buildDirectory, clientDir, prerendered.pages));
  await timePhase("compression", () => precompress(clientDir, prerendered.written));
  await timePhase("finishing", async () => {
    writeFileSync(join(buildDirectory, "site-url.txt"), `${siteUrl}\n`);
    writeFileSync(join(buildDirectory, OWNER_FILE), `${JSON.stringify(owner)}\n`);
    // After the last cached output.
    pruneBuildCache();
    writeFileSync(join(buildDirectory, CONTENT_ROOT_FILE), `${contentRoot(root)}\n`);
  });
}

/**
 * What the build needs of the catalogue: the covers and the site's icon, written here, then the
 * paths to prerender and the owner. The catalogue is let go before the prerendering, whose workers
 * each load their own: a copy held here would add to the build's peak memory.
 */
async function fromCatalogue(root: string, clientDir: string, routes: Parameters<typeof staticPaths>[0]) {
  const catalogue = loadCatalogue(contentRoot(root));
  await timePhase("covers", async () => {
    await writeCovers(catalogue, contentRoot(root), clientDir);
    for (const [sitePath, body] of siteIconFiles(contentRoot(root), catalogue.site)) {
      writeFileSync(join(clientDir, sitePath), body);
    }
  });
  return { paths: sitePaths(catalogue, routes), owner: { name: catalogue.site.name, email: catalogue.site.email } };
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

/**
 * The inline script and style hashes of every page, for the Content-Security-Policy the server
 * sends with it: the prerendering's pages as it measured them, any other HTML file read here.
 */
function writeInlineHashes(buildDirectory: string, clientDir: string, measured: Map<string, InlineHashes>): void {
  const pages = (readdirSync(clientDir, { recursive: true }) as string[]).filter((name) => name.endsWith(".html"));
  const others = pages.filter((page) => !measured.has(join(clientDir, page)));
  const hashes = {
    ...Object.fromEntries([...measured].map(([file, page]) => [relative(clientDir, file).split(sep).join("/"), page])),
    ...prerenderedInlineHashes(clientDir, others),
  };
  writeFileSync(join(buildDirectory, INLINE_HASHES_FILE), JSON.stringify(hashes));
}

/**
 * The brotli and gzip copies of each file but those the prerendering compressed (`done`), several
 * files at once: zlib compresses on libuv's worker threads.
 */
export async function precompress(dir: string, done: ReadonlySet<string> = new Set()): Promise<void> {
  const files = (readdirSync(dir, { recursive: true }) as string[])
    .map((name) => join(dir, name))
    .filter((file) => !done.has(file) && !/\.(br|gz)$/.test(file) && statSync(file).isFile());
  await forEachConcurrently(files, availableParallelism(), async (file) => {
    await writeCompressedCopies(file, await readFile(file));
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
