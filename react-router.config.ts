import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  // In BUILD_DIR, set by scripts/build.mjs, which serves the build only once it is whole.
  buildDirectory: process.env.BUILD_OUTPUT_DIR || "build",
  // The server stays on for the API, the form posts and the filtered lists; every content page is
  // prerendered by the build's last step (scripts/finish-build.ts), on worker threads.
  ssr: true,
  // Several entries (vite.config.ts), each named after its input: index.js is React Router's.
  serverBuildFile: "[name].js",
  // Every route is known up front (a few dozen modules), so no /__manifest round trips.
  routeDiscovery: { mode: "initial" },
  // The routes, for the build's last step, which scripts/build.mjs runs from the server build just made.
  buildEnd({ reactRouterConfig: { buildDirectory, routes } }) {
    writeFileSync(join(buildDirectory, "routes.json"), JSON.stringify(routes));
  },
} satisfies Config;
