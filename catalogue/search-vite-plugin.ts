/**
 * The site search's build outputs. The browser build (Vite's client environment) gets:
 * - the index, `assets/search-index-<hash>.json`: written from the catalogue's derived text at build
 *   time, immutable under its hashed name, fetched only when a visitor first searches;
 * - the search module, `assets/search-<hash>.js`: its own entry (`clientModule`), which no page
 *   loads until the page shell imports it on the first use of search.
 * The server build reads both URLs from the module `virtual:search-assets` (the client is built
 * first). Under `npm run dev` the module is served from source and the index is made per request.
 */
import { join } from "node:path";
import type { Plugin } from "vite";
import { contentRoot, loadCatalogue } from "./disk.ts";
import { buildSearchIndex, searchDocuments, serialiseSearchIndex } from "./site-search.ts";

const SEARCH_ASSETS = "virtual:search-assets";
const RESOLVED_SEARCH_ASSETS = `\0${SEARCH_ASSETS}`;
const DEV_INDEX_PATH = "/search-index.json";

/** Where the page shell finds the search module and the module finds the index. */
export type SearchAssets = { module: string; index: string };

const indexFile = (root: string) => serialiseSearchIndex(buildSearchIndex(searchDocuments(loadCatalogue(root))));

export function searchVitePlugin({ clientModule }: { clientModule: string }): Plugin {
  let root = contentRoot(process.cwd());
  let projectRoot = process.cwd();
  let building = false;
  let base = "/";
  // Set by the client build, read by the server build that follows it in the same process.
  let built: SearchAssets | undefined;
  let indexReference = "";
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
      indexReference = this.emitFile({ type: "asset", name: "search-index.json", source: indexFile(root) });
      moduleReference = this.emitFile({ type: "chunk", id: join(projectRoot, clientModule), name: "search-client" });
    },
    generateBundle() {
      if (!building || this.environment.name !== "client") return;
      built = { module: base + this.getFileName(moduleReference), index: base + this.getFileName(indexReference) };
    },
    resolveId(id) {
      return id === SEARCH_ASSETS ? RESOLVED_SEARCH_ASSETS : undefined;
    },
    load(id) {
      if (id !== RESOLVED_SEARCH_ASSETS) return;
      const assets: SearchAssets | undefined = building
        ? built
        : { module: `/${clientModule.replace(/^\/+/, "")}`, index: DEV_INDEX_PATH };
      if (!assets) throw new Error("The search assets are read by the server build, after the client build");
      return `export default ${JSON.stringify(assets)};`;
    },
    configureServer(server) {
      server.middlewares.use(DEV_INDEX_PATH, (_request, response) => {
        response.setHeader("Content-Type", "application/json");
        response.end(indexFile(root));
      });
    },
  };
}
