import { existsSync, readdirSync, rmSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { dirname, join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { createRequestListener } from "@react-router/node";
import type { Plugin, ViteDevServer } from "vite";
import { INLINE_HASHES_FILE, ownInlineHashes } from "../app/lib/inline-hashes.server.ts";
import { contentRoot, loadCatalogue, readContentFiles } from "../catalogue/disk.ts";
import { type Catalogue, ContentError, type ContentFile, isDraft, orContentError } from "../catalogue/load.ts";
import { eachAtOnce } from "../catalogue/present.ts";
import { SEARCH_CLIENT_MODULE, SEARCH_INDEX_PATH } from "../catalogue/site-search.ts";
import { siteUrlFromEnvironment } from "../catalogue/site-url.ts";
import { escapeXml } from "../catalogue/xml.ts";
import { imageCache, pruneImageCache } from "../outputs/image-cache.ts";
import { replacedIconProblem } from "../outputs/site-icon.ts";
import { buildCacheDir, buildRoot, writeBuildInfo } from "./build-folders.mjs";

/** The module that loads the catalogue, made again when the content changes under `npm run dev`. */
const CATALOGUE_MODULE = "app/catalogue.server.ts";

/** The catalogue, or the owner's mistake: one line read in the build's output, the terminal and the development page. */
function catalogueOrProblem(root: string, files?: ContentFile[]): Catalogue | string {
  const loaded = orContentError(() => loadCatalogue(root, files));
  return loaded instanceof ContentError ? `Content error: ${loaded.message}` : loaded;
}

/** The owner's mistake, not the build's, is printed last. */
function catalogueOrStop(root: string, files: ContentFile[]): Catalogue {
  const replaced = replacedIconProblem(root);
  const loaded = replaced ? `Content error: ${replaced}` : catalogueOrProblem(root, files);
  if (typeof loaded !== "string") return loaded;
  console.error(`\n${loaded}`);
  process.exit(1);
}

/** The development page that stands for every page while the content has a problem. */
function contentErrorPage(line: string): string {
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Content error</title>
<style>body{font:1rem/1.5 system-ui,sans-serif;margin:2rem auto;max-width:48rem;padding:0 1rem}p#content-error{white-space:pre-wrap;padding:1rem;border-left:4px solid #c00;background:#fff4f4;color:#600}</style>
<h1>Content error</h1>
<p id="content-error">${escapeXml(line)}</p>
<p>Fix the file and save it, then reload this page.</p>
</html>
`;
}

/** A page or its data (React Router's `.data` requests), as opposed to a module, an asset or an API call. */
const isPageRequest = (request: IncomingMessage) =>
  (request.method === "GET" || request.method === "HEAD") &&
  (Boolean(request.headers.accept?.includes("text/html")) || /\.data(?:\?|$)/.test(request.url ?? ""));

function watchContent(server: ViteDevServer, root: string) {
  const folders = [join(root, "content"), join(root, "public")];
  const catalogueModule = join(server.config.root, CATALOGUE_MODULE);
  let problem: string | null = null;

  const check = () => {
    const before = problem;
    const loaded = catalogueOrProblem(root);
    problem = typeof loaded === "string" ? loaded : null;
    if (problem && problem !== before) server.config.logger.error(problem, { timestamp: true });
    if (!problem && before) server.config.logger.info("The content is valid again.", { timestamp: true });
  };

  check();
  server.watcher.add(folders);
  server.watcher.on("all", (_event, path) => {
    if (!folders.some((folder) => path.startsWith(folder))) return;
    for (const environment of Object.values(server.environments)) {
      const module = environment.moduleGraph.getModuleById(catalogueModule);
      if (module) environment.moduleGraph.invalidateModule(module);
    }
    check();
  });
  return () => problem;
}

const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

/** The published content beside the server build, which reads it from there (app/catalogue.server.ts). */
const copyContent = (files: ContentFile[], buildDir: string) =>
  eachAtOnce(files, async (file) => {
    const target = join(buildDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.text);
  });

/** The prerendered pages without the mark of their own inline scripts, whose hashes their policy allows. */
async function recordInlineHashes(buildDir: string, clientDir: string, pages: string[]): Promise<void> {
  const hashes: Record<string, unknown> = {};
  await eachAtOnce(pages, async (page) => {
    const { html, hashes: own } = ownInlineHashes(await readFile(page, "utf8"));
    await writeFile(page, html);
    hashes[relative(clientDir, page).split(sep).join("/")] = own;
  });
  const sorted = Object.fromEntries(Object.entries(hashes).sort(([a], [b]) => (a < b ? -1 : 1)));
  await writeFile(join(buildDir, INLINE_HASHES_FILE), JSON.stringify(sorted));
}

const COMPRESSIBLE = /\.(html|js|css|svg|json|data|xml|atom|txt|webmanifest)$/;
/** Below this a compressed copy saves less than the extra bytes of headers. */
const MIN_COMPRESS_BYTES = 1024;
/** Brotli 11 costs about a second a megabyte: for the files every visitor fetches, quality 6 for the rest. */
const brotliQuality = (file: string) =>
  file.includes(`${sep}assets${sep}`) || file.endsWith(SEARCH_INDEX_PATH) ? 11 : 6;

/** A brotli and a gzip copy beside each compressible file, so the server never compresses per request. */
const writeCompressedCopies = (files: string[]) =>
  eachAtOnce(
    files.filter((file) => COMPRESSIBLE.test(file)),
    async (file) => {
      const content = await readFile(file);
      if (content.length < MIN_COMPRESS_BYTES) return;
      const params = {
        [constants.BROTLI_PARAM_QUALITY]: brotliQuality(file),
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      };
      const [br, gz] = await Promise.all([promisify(brotliCompress)(content, { params }), promisify(gzip)(content)]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    },
  );

export function sitePlugin(): Plugin {
  let projectRoot = process.cwd();
  let root = contentRoot(projectRoot);
  let started = 0;
  let buildDir = "";
  let owner: { name: string; email: string } | undefined;
  const cache = () => imageCache(projectRoot, buildCacheDir(buildRoot(projectRoot)), root);
  return {
    name: "site",
    config(userConfig, { command, isPreview }) {
      projectRoot = userConfig.root ?? projectRoot;
      root = contentRoot(projectRoot);
      const building = command === "build" && !isPreview;
      return {
        define: {
          __SITE_URL__: JSON.stringify(siteUrlFromEnvironment(process.env)),
          ...(building && { __IMAGE_CACHE__: JSON.stringify(cache()) }),
        },
        publicDir: join(root, "public"),
        // Only `npm run dev` watches the project, never its builds. React Router's compiler asks for no
        // watching during a build (`watch: null`); an object here would start one over the whole project.
        server: {
          watch: isPreview || userConfig.server?.watch === null ? null : { ignored: [`${buildRoot(projectRoot)}/**`] },
        },
        // The server finds the search module's file in the browser build's manifest (app/search.server.ts).
        build: { manifest: true },
      };
    },
    async buildStart() {
      if (this.environment.config.command !== "build" || this.environment.name !== "client") return;
      started = Date.now();
      buildDir = dirname(this.environment.config.build.outDir);
      const files = readContentFiles(root);
      // Only the owner is kept: the catalogue itself would stay in memory through the whole build.
      const { name, email } = catalogueOrStop(root, files).site;
      owner = { name, email };
      await copyContent(
        files.filter((file) => !isDraft(file)),
        buildDir,
      );
      this.emitFile({ type: "chunk", id: join(projectRoot, SEARCH_CLIENT_MODULE), name: "search-client" });
    },
    buildApp: {
      order: "post",
      async handler(builder) {
        if (!owner) return;
        const clientDir = join(buildDir, "client");
        // Drawn by the server build, whose catalogue the prerendering loaded: not prerendered, as React
        // Router would ask for each image twice (its data, then the file).
        const serverDir = builder.environments.ssr?.config.build.outDir ?? join(buildDir, "server");
        const { writeImages } = await import(pathToFileURL(join(serverDir, "images.js")).href);
        const files = filesUnder(clientDir);
        // React Router writes a resource route's data beside its file too; nothing ever asks for it.
        const written = new Set(files);
        const resourceData = new Set(files.filter((file) => file.endsWith(".data") && written.has(file.slice(0, -5))));
        for (const file of resourceData) rmSync(file);
        // The images are drawn on this thread while libuv's threads compress the pages: neither waits for the other.
        const pagesReady = recordInlineHashes(
          buildDir,
          clientDir,
          files.filter((file) => file.endsWith(".html")),
        ).then(() => writeCompressedCopies(files.filter((file) => !resourceData.has(file))));
        const [images] = (await Promise.all([writeImages(clientDir), pagesReady])) as [string[], unknown];
        await writeCompressedCopies(images);
        pruneImageCache(cache(), started);
        writeBuildInfo(buildDir, { siteUrl: siteUrlFromEnvironment(process.env), contentRoot: root, owner });
      },
    },
    // React Router's prerendering gives each request 10 s, the first one included: the server build,
    // and the catalogue it loads, is imported before the requests start (at 10,000 notes it takes longer).
    async configurePreviewServer(server) {
      const serverBuild = join(server.config.environments.ssr?.build.outDir ?? "", "index.js");
      if (!existsSync(serverBuild)) return;
      const build = await import(pathToFileURL(serverBuild).href);
      // Every prerendered path is a route: it goes straight to React Router, past the preview's look
      // for a static file of that name on disk, which cost seconds of a build of thousands of pages.
      server.middlewares.use(createRequestListener({ build }));
    },
    configureServer(server) {
      const contentProblem = watchContent(server, root);
      server.middlewares.use((request, response, next) => {
        const problem = contentProblem();
        if (!problem || !isPageRequest(request)) return next();
        response.statusCode = 500;
        response.setHeader("Content-Type", "text/html; charset=utf-8");
        response.end(contentErrorPage(problem));
      });
    },
  };
}
