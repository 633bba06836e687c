import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  // A new folder for each build, made by scripts/build.mjs, which serves it only once it is whole.
  buildDirectory: process.env.BUILD_OUTPUT_DIR || "build",
  // The server stays on for the API, the form posts and the filtered lists; every content page is
  // prerendered when the build ends (scripts/finish-build.ts), on worker threads.
  ssr: true,
  // Several entries (vite.config.ts), each named after its input: index.js is React Router's.
  serverBuildFile: "[name].js",
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
    const { buildDirectory, routes } = reactRouterConfig;
    // The build's last step, from the server build just made: a build where only the content
    // changes runs the same file alone (scripts/build.mjs).
    const finishBuild = pathToFileURL(join(buildDirectory, "server/finish-build.js")).href;
    const { finishClientBuild, buildFailureLine } = (await import(
      /* @vite-ignore */ finishBuild
    )) as typeof import("./scripts/finish-build.ts");
    try {
      await finishClientBuild(process.cwd(), buildDirectory, routes);
    } catch (error) {
      // One line naming what failed, not a stack through the build tools.
      console.error(buildFailureLine(error));
      process.exit(1);
    }
  },
} satisfies Config;
