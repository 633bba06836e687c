/**
 * The site search's module and index:
 * - the search module, `assets/search-<hash>.js`: its own entry of the browser build
 *   (`clientModule`), which no page loads until the page shell imports it on the first use of search;
 * - the index, `/search-index.json`: written from the catalogue's derived text by the build's last
 *   step (scripts/finish-build.ts), not by the bundler, so that a build where only the content
 *   changed keeps the bundles and every page whose own data did not change (its address is the
 *   same in every build; the server revalidates it).
 * The server build reads both URLs from the module `virtual:search-assets` (the client is built
 * first). Under `npm run dev` the module is served from source and the index is made per request.
 */
import { join } from "node:path";
import type { Plugin } from "vite";
import { contentRoot, loadCatalogue } from "./disk.ts";
import { SEARCH_INDEX_PATH, searchIndexFile } from "./site-search.ts";

const SEARCH_ASSETS = "virtual:search-assets";
const RESOLVED_SEARCH_ASSETS = `\0${SEARCH_ASSETS}`;

/** Where the page shell finds the search module and the module finds the index. */
export type SearchAssets = { module: string; index: string };

export function searchVitePlugin({ clientModule }: { clientModule: string }): Plugin {
  let root = contentRoot(process.cwd());
  let projectRoot = process.cwd();
  let building = false;
  let base = "/";
  // Set by the client build, read by the server build that follows it in the same process.
  let builtModule: string | undefined;
  let moduleReference = "";
  return {
    name: "site-search",
    configResolved(config) {
      building = config.command === "build";
      projectRoot = config.root;
      root = contentRoot(config.root);
      base = config.base;
    },
    buildStart() {
      if (!building || this.environment.name !== "client") return;
      moduleReference = this.emitFile({ type: "chunk", id: join(projectRoot, clientModule), name: "search-client" });
    },
    generateBundle() {
      if (!building || this.environment.name !== "client") return;
      builtModule = base + this.getFileName(moduleReference);
    },
    resolveId(id) {
      return id === SEARCH_ASSETS ? RESOLVED_SEARCH_ASSETS : undefined;
    },
    load(id) {
      if (id !== RESOLVED_SEARCH_ASSETS) return;
      const module = building ? builtModule : `/${clientModule.replace(/^\/+/, "")}`;
      if (!module) throw new Error("The search module's URL is read by the server build, after the client build");
      const assets: SearchAssets = { module, index: base + SEARCH_INDEX_PATH.slice(1) };
      return `export default ${JSON.stringify(assets)};`;
    },
    configureServer(server) {
      server.middlewares.use(SEARCH_INDEX_PATH, (_request, response) => {
        response.setHeader("Content-Type", "application/json");
        response.end(searchIndexFile(loadCatalogue(root)));
      });
    },
  };
}
