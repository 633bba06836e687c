/**
 * Connects the catalogue to Vite: a build stops on the first bad content file with its path,
 * field and problem, and the development server draws the generated covers on request (the
 * production build writes them as files, see scripts/finish-build.ts).
 */
import type { Plugin } from "vite";
import { coverSvg } from "./cover";
import { loadCatalogue } from "./disk";

export function catalogueVitePlugin(): Plugin {
  let root = process.cwd();
  return {
    name: "catalogue",
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      loadCatalogue(root);
    },
    configureServer(server) {
      server.middlewares.use("/covers", (request, response, next) => {
        const slug = /^\/([a-z0-9-]+)\.svg$/.exec(request.url ?? "")?.[1];
        const note = slug && loadCatalogue(root).books.find((book) => book.slug === slug);
        if (!note) return next();
        response.setHeader("Content-Type", "image/svg+xml");
        response.end(coverSvg(note.name, note.author));
      });
    },
  };
}
