/**
 * The build's last step, which makes everything that comes from the content; the bundles before
 * it come from the code alone. scripts/build.mjs runs it from its compiled copy,
 * server/finish-build.js of the new build's folder: after `react-router build`
 * (`finishClientBuild`), or alone when only the content changed since the last build
 * (`rebuildContent`, on a copy of the served build). It writes into client/ the public files, the
 * generated book covers (SVG, and the PNG copy a note shares on social sites, drawn once and kept
 * in the build cache), the site's icon (catalogue/site-icon.ts) and the search index, prerenders
 * every page and card (scripts/prerender.ts), and writes a brotli and a gzip copy of every
 * compressible file (scripts/compressed-copies.ts); beside client/:
 * server/content-files.json (the content the server build reads), inline-hashes.json (the inline
 * script and style hashes of every page, for its Content-Security-Policy), site-url.txt (the
 * SITE_URL the pages were built for), owner.json (the owner's name and address in that content:
 * the server's default recipient, so production reads no content/ folder), code.json (what the
 * next build needs to keep the bundles) and content-root.txt, the folder whose content/ the pages
 * hold (`npm start` rebuilds when either changes; the tests build the fixture site).
 * content-root.txt is written last: it marks a whole build.
 *
 * A file that already holds what this build would write is left as it is, with its compressed
 * copies, and a page whose data did not change is not rendered again; anything not produced this
 * time is removed. After `react-router build` client/ holds only the bundles, so everything is
 * written.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { cachedBuildOutput, enableBuildCache, pruneBuildCache } from "../catalogue/build-cache.ts";
import { timePhase } from "../catalogue/build-timing.ts";
import { CONTENT_FILES_FILE, CONTENT_ROOT_FILE, OWNER_FILE } from "../catalogue/content-root.ts";
import { contentRoot, publishedContentJson, readContentFiles } from "../catalogue/disk.ts";
import { type Catalogue, type ContentFile, isGeneratedCover, RESERVED_UPDATE_SLUGS } from "../catalogue/load.ts";
import { SEARCH_INDEX_PATH, searchIndexFile } from "../catalogue/site-search.ts";
import { siteUrlFromEnvironment } from "../catalogue/site-url.ts";
import { catalogueOrStop } from "../catalogue/vite-plugin.ts";
import { INLINE_HASHES_FILE, type InlineHashes, NO_INLINE } from "../host/security.ts";
import {
  COVER_IMAGE_SCALE,
  cardPath,
  cardTitles,
  coverImagePath,
  drawsCoverImage,
  quoteCards,
} from "../outputs/card.ts";
import { coverSvg } from "../outputs/cover.ts";
import { svgToPng } from "../outputs/png.ts";
import { siteIconFiles } from "../outputs/site-icon.ts";
import { derivedPagePaths } from "../outputs/sitemap.ts";
import { filesUnder, holds, removeAllBut, writeNew } from "./build-files.ts";
import { writeCompressedCopies } from "./compressed-copies.ts";
import { prerender, staticPaths } from "./prerender.ts";

/** The file in build/ that lets the next build keep the bundles when the code has not changed. */
export const CODE_RECORD_FILE = "code.json";

/** What a build with the same code can keep of this one, and what it needs of the code to do so. */
export type CodeRecord = {
  /** A hash of the code the bundles were made from (scripts/build.mjs). */
  fingerprint: string;
  /** The bundles' files in build/client, relative to it. */
  clientFiles: string[];
  /** The paths of the routes without parameters. */
  staticPaths: string[];
};

/** Every page, its data and its card; the newsletter's per-visitor pages excepted. */
function sitePaths(catalogue: Catalogue, routePaths: string[]): string[] {
  // The benchmark's 10,000-note copy of the site, for tests of its lists only, prerenders just those.
  const only = process.env.PRERENDER_ONLY;
  if (only) return only.split(",");
  const cards = [...cardTitles(catalogue).keys(), ...quoteCards(catalogue, "").keys()].map(cardPath);
  // The newsletter's confirm and unsubscribe pages answer per visitor (their token): never prerendered.
  const perRequest = new Set(RESERVED_UPDATE_SLUGS.map((slug) => `/updates/${slug}`));
  const pages = routePaths.filter((path) => !perRequest.has(path));
  const items = [...catalogue.all, ...catalogue.updates].map((item) => item.path);
  return [...new Set([...pages, ...items, ...derivedPagePaths(catalogue), ...cards])];
}

/** The last step after `react-router build`: client/ holds the bundles and nothing else yet. */
export async function finishClientBuild(
  root: string,
  buildDirectory: string,
  routes: Parameters<typeof staticPaths>[0],
  fingerprint: string,
): Promise<void> {
  enableBuildCache(root, contentRoot(root));
  const clientDir = join(buildDirectory, "client");
  const code: CodeRecord = {
    fingerprint,
    clientFiles: filesUnder(clientDir)
      .map((file) => relative(clientDir, file).split(sep).join("/"))
      .sort(),
    staticPaths: staticPaths(routes),
  };
  await finishBuild(root, buildDirectory, code, {});
}

/** A build where only the content changed: the last build's bundles, everything else made again. */
export async function rebuildContent(root: string, buildDirectory: string): Promise<void> {
  enableBuildCache(root, contentRoot(root));
  const code: CodeRecord = JSON.parse(readFileSync(join(buildDirectory, CODE_RECORD_FILE), "utf8"));
  const recorded: Record<string, InlineHashes> = JSON.parse(
    readFileSync(join(buildDirectory, INLINE_HASHES_FILE), "utf8"),
  );
  await finishBuild(root, buildDirectory, code, recorded);
}

/**
 * `earlierHashes`: the inline hashes the last build recorded, for the pages this one keeps as they
 * were without rendering them.
 */
async function finishBuild(
  root: string,
  buildDirectory: string,
  code: CodeRecord,
  earlierHashes: Record<string, InlineHashes>,
): Promise<void> {
  const clientDir = join(buildDirectory, "client");
  // The same reading as the one catalogue/vite-plugin.ts baked into the pages.
  const siteUrl = siteUrlFromEnvironment(process.env);
  const output = new BuildOutput();
  const bundles = code.clientFiles.map((file) => join(clientDir, ...file.split("/")));
  for (const file of bundles) output.produced.add(file);
  const contentDir = contentRoot(root);
  // Let go once its files are written: the prerendering's workers each load their own, and a copy
  // held here would add to the build's peak memory.
  const files = readContentFiles(contentDir);
  let catalogue: Catalogue | undefined = catalogueOrStop(contentDir, files);
  writeContentForServer(files, buildDirectory);
  const paths = sitePaths(catalogue, code.staticPaths);
  const owner = { name: catalogue.site.name, email: catalogue.site.email };
  // The workers load the server build while this thread writes the files that come from the
  // content, then compresses them on zlib's threads (the prerendering compresses what it writes;
  // the bundles' copies come from the build cache when a build keeps them).
  const prerendering = timePhase("prerender", () => prerender(join(buildDirectory, "server"), clientDir, paths));
  const writing = (async () => {
    await timePhase("content", () => writeContentFiles(catalogue as Catalogue, contentDir, clientDir, output));
    catalogue = undefined;
    await timePhase("compression", () => precompress([...bundles, ...output.changed]));
  })();
  const [prerendered] = await Promise.all([prerendering, writing]);
  for (const file of [...prerendered.written, ...prerendered.kept]) output.produced.add(file);
  removeAllBut(clientDir, output.produced);
  await timePhase("hashes", () =>
    writeInlineHashes(buildDirectory, clientDir, prerendered.pages, (page) =>
      output.changed.has(page) ? undefined : earlierHashes[relative(clientDir, page).split(sep).join("/")],
    ),
  );
  await timePhase("finishing", async () => {
    writeNew(join(buildDirectory, "site-url.txt"), `${siteUrl}\n`);
    writeNew(join(buildDirectory, OWNER_FILE), `${JSON.stringify(owner)}\n`);
    if (code.fingerprint) writeNew(join(buildDirectory, CODE_RECORD_FILE), `${JSON.stringify(code)}\n`);
    // After the last cached output.
    pruneBuildCache();
    writeNew(join(buildDirectory, CONTENT_ROOT_FILE), `${contentDir}\n`);
  });
}

/** What the build writes itself into build/client, each file only when its bytes changed. */
export class BuildOutput {
  /** Every file of build/client this build stands for. */
  readonly produced = new Set<string>();
  /** Those it wrote: only they need new compressed copies. */
  readonly changed = new Set<string>();

  write(file: string, body: Buffer | string): void {
    this.produced.add(file);
    if (holds(file, body)) return;
    mkdirSync(dirname(file), { recursive: true });
    writeNew(file, body);
    this.changed.add(file);
  }
}

/** The content the server build reads (catalogue/vite-plugin.ts), written before the prerendering starts. */
function writeContentForServer(files: ContentFile[], buildDirectory: string): void {
  const file = join(buildDirectory, "server", CONTENT_FILES_FILE);
  const published = publishedContentJson(files);
  if (!holds(file, published)) writeNew(file, published);
}

/** The files of build/client that come from the content alone: public files, covers, the site's icon, the search index. */
async function writeContentFiles(catalogue: Catalogue, contentDir: string, clientDir: string, output: BuildOutput) {
  copyPublicFiles(join(contentDir, "public"), clientDir, output);
  await writeCovers(catalogue, contentDir, clientDir, output);
  for (const [sitePath, body] of siteIconFiles(contentDir, catalogue.site))
    output.write(join(clientDir, sitePath), body);
  output.write(join(clientDir, SEARCH_INDEX_PATH.slice(1)), searchIndexFile(catalogue));
}

/** The content root's public/ folder, as is. */
function copyPublicFiles(publicDir: string, clientDir: string, output: BuildOutput): void {
  let files: string[];
  try {
    files = filesUnder(publicDir);
  } catch {
    return;
  }
  for (const file of files) output.write(join(clientDir, relative(publicDir, file)), readFileSync(file));
}

export async function writeCovers(
  catalogue: Catalogue,
  root: string,
  clientDir: string,
  output: BuildOutput,
): Promise<void> {
  for (const note of catalogue.notes) {
    const generated = isGeneratedCover(note);
    const svg = generated ? coverSvg(note.name, note.author) : undefined;
    if (svg) output.write(join(clientDir, note.photo), svg);
    if (drawsCoverImage(note)) {
      const source = svg ?? readFileSync(join(root, "public", note.photo), "utf8");
      const png = await cachedBuildOutput("cover", { source, scale: COVER_IMAGE_SCALE }, () =>
        svgToPng(source, COVER_IMAGE_SCALE),
      );
      output.write(join(clientDir, coverImagePath(note.slug)), png);
    }
  }
}

/**
 * The inline script and style hashes of every page and of the not-found page, for the
 * Content-Security-Policy the server sends with it: those the prerendering measured, or those of a
 * page kept as it was (`kept`). Any other HTML file (one of public/) has none: only the app's
 * own inline scripts run.
 */
function writeInlineHashes(
  buildDirectory: string,
  clientDir: string,
  measured: Map<string, InlineHashes>,
  kept: (page: string) => InlineHashes | undefined,
): void {
  // In path order: the file is the same whichever order a build wrote its pages in.
  const pages = [
    ...filesUnder(clientDir)
      .filter((file) => file.endsWith(".html"))
      .sort(),
    join(buildDirectory, "not-found.html"),
  ];
  const hashes = Object.fromEntries(
    pages.map((page) => [
      relative(clientDir, page).split(sep).join("/"),
      measured.get(page) ?? kept(page) ?? NO_INLINE,
    ]),
  );
  writeNew(join(buildDirectory, INLINE_HASHES_FILE), JSON.stringify(hashes));
}

/**
 * The brotli and gzip copies of `files` (the prerendering compresses what it writes), several
 * files at once: zlib compresses on libuv's worker threads.
 */
export async function precompress(files: string[]): Promise<void> {
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
