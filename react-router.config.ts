import type { Config } from "@react-router/dev/config";
import { cardPath, cardTitles, quoteCards } from "./catalogue/card.ts";
import { contentRoot, loadCatalogue } from "./catalogue/disk.ts";
import { RESERVED_UPDATE_SLUGS } from "./catalogue/load.ts";
import { derivedPagePaths } from "./catalogue/sitemap.ts";
import { finishClientBuild } from "./scripts/finish-build.ts";

/** Every page, its data and its card; the newsletter's per-visitor pages excepted. */
async function prerenderPaths({ getStaticPaths }: { getStaticPaths: () => string[] }): Promise<string[]> {
  // The benchmark builds a 10,000-note copy of the site and needs only its lists prerendered.
  const only = process.env.PRERENDER_ONLY;
  if (only) return only.split(",");
  const catalogue = loadCatalogue(contentRoot(process.cwd()));
  const cards = [...cardTitles(catalogue).keys(), ...quoteCards(catalogue, "").keys()].map(cardPath);
  const issues = catalogue.updates.map((issue) => issue.path);
  // The newsletter's confirm and unsubscribe pages answer per visitor (their token): never prerendered.
  const perRequest = new Set(RESERVED_UPDATE_SLUGS.map((slug) => `/updates/${slug}`));
  const pages = getStaticPaths().filter((path) => !perRequest.has(path));
  return [...pages, ...catalogue.all.map((item) => item.path), ...derivedPagePaths(catalogue), ...issues, ...cards];
}

export default {
  appDirectory: "app",
  // The server stays on for the API, the form posts and the 404 screen; every content page is prerendered.
  ssr: true,
  // Several entries (vite.config.ts), each named after its input: index.js is React Router's.
  serverBuildFile: "[name].js",
  prerender: {
    // Several pages in flight let one page's file writes overlap another's rendering: measured on
    // 2 cores, 4 at a time prerenders the sample 5-15 % faster than 1 for the same memory.
    concurrency: 4,
    paths: prerenderPaths,
  },
  // Every route is known up front (a few dozen modules), so no /__manifest round trips.
  routeDiscovery: { mode: "initial" },
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
  async buildEnd({ reactRouterConfig }) {
    await finishClientBuild(process.cwd(), reactRouterConfig.buildDirectory);
  },
} satisfies Config;
