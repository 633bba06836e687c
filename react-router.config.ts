import type { Config } from "@react-router/dev/config";
import { contentRoot, loadCatalogue } from "./catalogue/disk.ts";
import { REMOTE_FOLLOW_PATH } from "./catalogue/handle.ts";
import { RESERVED_UPDATE_SLUGS } from "./catalogue/load.ts";
import { derivedPagePaths } from "./outputs/sitemap.ts";

export default {
  appDirectory: "app",
  // In BUILD_DIR, set by build-tools/build.mjs, which serves the build only once it is whole.
  buildDirectory: process.env.BUILD_OUTPUT_DIR || "build",
  // The server stays on for the API, the form posts, the filtered lists and the newsletter's token pages.
  ssr: true,
  // Several entries (vite.config.ts), each named after its input: index.js is React Router's.
  serverBuildFile: "[name].js",
  // Every route is known up front (a few dozen modules), so no /__manifest round trips.
  routeDiscovery: { mode: "initial" },
  prerender: {
    async paths({ getStaticPaths }) {
      const catalogue = loadCatalogue(contentRoot(process.cwd()));
      // The mail links' pages show one visitor's token, and the follow page sends a reader on: per request.
      const perVisitor = new Set([
        ...RESERVED_UPDATE_SLUGS.map((slug) => `/updates/${slug}`),
        "/replies/confirm",
        REMOTE_FOLLOW_PATH,
      ]);
      const paths = [
        ...getStaticPaths().filter((path) => !perVisitor.has(path)),
        ...[...catalogue.all, ...catalogue.updates].map((item) => item.path),
        ...derivedPagePaths(catalogue),
      ];
      return [...new Set(paths)];
    },
    concurrency: 4,
  },
} satisfies Config;
