import type { Config } from "@react-router/dev/config";
import { finishClientBuild } from "./scripts/finish-build.ts";

export default {
  appDirectory: "app",
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
    await finishClientBuild(process.cwd(), reactRouterConfig.buildDirectory, reactRouterConfig.routes);
  },
} satisfies Config;
