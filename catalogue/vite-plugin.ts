/**
 * Connects the catalogue to Vite:
 * - the published content files reach the server as the module `virtual:content-files`
 *   (app/catalogue.server.ts), read from the content root (catalogue/content-root.ts: the project,
 *   or CONTENT_ROOT), whose public/ is the site's public folder; drafts stay out. A build leaves
 *   both out of its bundles: the server build reads build/server/content-files.json, which the
 *   build's last step writes with the public files (scripts/finish-build.ts), so a build where only
 *   the content changed can keep the bundles (scripts/build.mjs);
 * - a build stops on the first content problem, printed last as one line (file, field, reason),
 *   and exits non-zero;
 * - under `npm run dev` a content problem is the page itself, the same line, printed once in the
 *   terminal, until the file is fixed;
 * - SITE_URL is read once and baked into the build as `__SITE_URL__` (app/lib/site-url.ts);
 * - a build keeps what is slow to make (images, compressed copies) in node_modules/.cache/build
 *   (catalogue/build-cache.ts);
 * - the development server draws the generated covers, SVG and PNG, and the site's icon on request
 *   (the production build writes them as files, see scripts/finish-build.ts); a build stops when
 *   public/ holds a file of the icon's name, which the drawn icon would replace.
 */

import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { join, resolve } from "node:path";
import type { Plugin, ViteDevServer } from "vite";
import { COVER_IMAGE_SCALE, drawsCoverImage } from "../outputs/card.ts";
import { coverSvg } from "../outputs/cover.ts";
import { svgToPng } from "../outputs/png.ts";
import { replacedIconProblem, siteIconFiles } from "../outputs/site-icon.ts";
import { SITE_ICON_FILES } from "../outputs/site-icon-files.ts";
import { CONTENT_FILES_FILE } from "./content-root.ts";
import { contentRoot, loadCatalogue, publishedContentJson, readContentFiles } from "./disk.ts";
import { type Catalogue, ContentError, type ContentFile, isGeneratedCover } from "./load.ts";
import { siteUrlFromEnvironment } from "./site-url.ts";

const CONTENT_FILES = "virtual:content-files";
const RESOLVED_CONTENT_FILES = `\0${CONTENT_FILES}`;

/** The one line the owner reads, in the build's output, the terminal and the development page. */
export const contentErrorLine = (error: ContentError) => `Content error: ${error.message}`;

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The catalogue a build is made from; the build stops before anything else when the content has a
 * problem. The owner's mistake, not the build's: one line with the file, the field and the reason,
 * printed last, instead of a stack trace through the build tools.
 */
export function catalogueOrStop(root: string, files: ContentFile[] = readContentFiles(root)): Catalogue {
  const replaced = replacedIconProblem(root);
  if (replaced) {
    console.error(`\nContent error: ${replaced}`);
    process.exit(1);
  }
  try {
    return loadCatalogue(root, files);
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    console.error(`\n${contentErrorLine(error)}`);
    process.exit(1);
  }
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
<p id="content-error">${escapeHtml(line)}</p>
<p>Fix the file and save it, then reload this page.</p>
</html>
`;
}

/** A page or its data (React Router's `.data` requests), as opposed to a module, an asset or an API call. */
const isPageRequest = (request: IncomingMessage) =>
  (request.method === "GET" || request.method === "HEAD") &&
  (Boolean(request.headers.accept?.includes("text/html")) || /\.data(?:\?|$)/.test(request.url ?? ""));

/** Watches the content root; answers "what is wrong with the content?", computed once per change. */
function watchContent(server: ViteDevServer, root: string) {
  const contentDir = join(root, "content");
  const publicDir = join(root, "public");
  let problem: string | null | undefined;
  let reported: string | null = null;

  const check = (): string | null => {
    if (problem !== undefined) return problem;
    try {
      loadCatalogue(root);
      problem = null;
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problem = contentErrorLine(error);
    }
    if (problem !== reported) {
      if (problem) server.config.logger.error(problem, { timestamp: true });
      else if (reported) server.config.logger.info("The content is valid again.", { timestamp: true });
      reported = problem;
    }
    return problem;
  };

  server.watcher.add([contentDir, publicDir]);
  server.watcher.on("all", (event, path) => {
    if (!path.startsWith(contentDir) && !path.startsWith(publicDir)) return;
    problem = undefined;
    if (event === "add" || event === "unlink" || event === "change") {
      for (const environment of Object.values(server.environments)) {
        const module = environment.moduleGraph.getModuleById(RESOLVED_CONTENT_FILES);
        if (module) environment.moduleGraph.invalidateModule(module);
      }
    }
    // Said at once in the terminal, not only at the next page request.
    check();
  });
  return check;
}

export function catalogueVitePlugin(): Plugin {
  let root = contentRoot(process.cwd());
  let building = false;
  let contentProblem = (): string | null => null;
  return {
    name: "catalogue",
    config(userConfig, { command }) {
      building = command === "build";
      root = contentRoot(resolve(userConfig.root ?? process.cwd()));
      return {
        define: { __SITE_URL__: JSON.stringify(siteUrlFromEnvironment(process.env)) },
        publicDir: join(root, "public"),
        build: { copyPublicDir: false },
      };
    },
    buildStart() {
      if (building) catalogueOrStop(root);
    },
    resolveId(id) {
      return id === CONTENT_FILES ? RESOLVED_CONTENT_FILES : undefined;
    },
    load(id) {
      if (id !== RESOLVED_CONTENT_FILES) return;
      if (building) {
        // The file beside the server build, wherever the module lands among its chunks; the bundle
        // holds it empty until the build's last step writes it.
        const file = this.emitFile({ type: "asset", fileName: CONTENT_FILES_FILE, source: "[]" });
        return `import { readFileSync } from "node:fs";
export default JSON.parse(readFileSync(import.meta.ROLLUP_FILE_URL_${file}, "utf8"));`;
      }
      const files = readContentFiles(root);
      for (const file of files) this.addWatchFile(join(root, file.path));
      return `export default ${publishedContentJson(files)};`;
    },
    // Vite turns a file's URL into one under the site's base, but this one is a file beside the server build.
    resolveFileUrl: {
      order: "pre",
      handler({ moduleId, relativePath }) {
        return moduleId === RESOLVED_CONTENT_FILES
          ? `new URL(${JSON.stringify(relativePath)}, import.meta.url)`
          : undefined;
      },
    },
    configureServer(server) {
      contentProblem = watchContent(server, root);
      contentProblem();
      server.middlewares.use((request, response, next) => {
        const problem = contentProblem();
        if (!problem || !isPageRequest(request)) return next();
        response.statusCode = 500;
        response.setHeader("Content-Type", "text/html; charset=utf-8");
        response.end(contentErrorPage(problem));
      });
      server.middlewares.use((request, response, next) => {
        const icon = Object.values(SITE_ICON_FILES).find((sitePath) => request.url === sitePath);
        if (!icon || contentProblem()) return next();
        const body = siteIconFiles(root, loadCatalogue(root).site).get(icon);
        response.setHeader("Content-Type", icon.endsWith(".png") ? "image/png" : "image/svg+xml");
        response.end(body);
      });
      server.middlewares.use("/covers", (request, response, next) => {
        const [, slug, extension] = /^\/([a-z0-9-]+)\.(svg|png)$/.exec(request.url ?? "") ?? [];
        const note = slug && !contentProblem() && loadCatalogue(root).notes.find((book) => book.slug === slug);
        if (!note) return next();
        if (extension === "svg" && !isGeneratedCover(note)) return next();
        if (extension === "png" && !drawsCoverImage(note)) return next();
        const svg = isGeneratedCover(note)
          ? coverSvg(note.name, note.author)
          : readFileSync(join(root, "public", note.photo), "utf8");
        response.setHeader("Content-Type", extension === "png" ? "image/png" : "image/svg+xml");
        response.end(extension === "png" ? svgToPng(svg, COVER_IMAGE_SCALE) : svg);
      });
    },
  };
}
