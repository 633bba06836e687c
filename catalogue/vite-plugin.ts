/**
 * Connects the catalogue to Vite: a build stops on the first bad content file with its path,
 * field and problem, SITE_URL is read once and baked into the build as `__SITE_URL__`
 * (app/lib/site-url.ts), and the development server draws the generated covers, SVG and PNG, on
 * request (the production build writes them as files, see scripts/finish-build.ts).
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";
import { COVER_IMAGE_SCALE, drawsCoverImage } from "./card.ts";
import { coverSvg, isGeneratedCover } from "./cover.ts";
import { loadCatalogue } from "./disk.ts";
import { svgToPng } from "./png.ts";
import { siteUrlFromEnvironment } from "./site-url.ts";

export function catalogueVitePlugin(): Plugin {
  let root = process.cwd();
  return {
    name: "catalogue",
    config() {
      return { define: { __SITE_URL__: JSON.stringify(siteUrlFromEnvironment(process.env)) } };
    },
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      loadCatalogue(root);
    },
    configureServer(server) {
      server.middlewares.use("/covers", (request, response, next) => {
        const [, slug, extension] = /^\/([a-z0-9-]+)\.(svg|png)$/.exec(request.url ?? "") ?? [];
        const note = slug && loadCatalogue(root).books.find((book) => book.slug === slug);
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
