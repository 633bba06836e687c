import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { buildTimingVitePlugin } from "./catalogue/build-timing.ts";
import { searchVitePlugin } from "./catalogue/search-vite-plugin.ts";
import { catalogueVitePlugin } from "./catalogue/vite-plugin.ts";

const SERVER_FOLDERS = [`${import.meta.dirname}/services/`, `${import.meta.dirname}/host/`];

/** The services and the host never reach the browser: a client module importing one fails the build. */
function serverOnly(): Plugin {
  return {
    name: "server-only",
    applyToEnvironment: (environment) => environment.name === "client",
    load(id) {
      if (SERVER_FOLDERS.some((folder) => id.startsWith(folder)))
        this.error(`${id} is server code: only route loaders and actions may use it.`);
    },
  };
}

export default defineConfig({
  plugins: [
    buildTimingVitePlugin(),
    catalogueVitePlugin(),
    searchVitePlugin({ clientModule: "app/search/client.ts" }),
    serverOnly(),
    reactRouter(),
  ],
  environments: {
    // React Router 8 ships one file per module: kept in one chunk, as it was in 7, it weighs less.
    client: {
      build: {
        rolldownOptions: {
          output: { codeSplitting: { groups: [{ name: "react-router", test: /node_modules[\\/]react-router[\\/]/ }] } },
        },
      },
    },
    // One server build: React Router's (index.js), the HTTP host around it (host.js), the worker
    // threads that prerender the site at the end of the
    // build (prerender-worker.js), the build's last step, run alone when only the content changed
    // (finish-build.js), the start-up (main.js, run by `npm start` with no TypeScript loader) and
    // the SITE_URL check `npm start` runs before any build exists (site-url.js). They share one
    // copy of every module.
    ssr: {
      build: {
        rollupOptions: {
          input: {
            index: "virtual:react-router/server-build",
            host: "host/host.ts",
            "prerender-worker": "scripts/prerender-worker.ts",
            "finish-build": "scripts/finish-build.ts",
            main: "host/main.ts",
            "site-url": "catalogue/site-url.ts",
          },
          output: { chunkFileNames: "chunks/[name]-[hash].js" },
        },
      },
    },
  },
  build: {
    // Each build has a new folder (scripts/build.mjs), which may lie outside the project.
    emptyOutDir: true,
    // React Router prerenders and analyses routes inside its plugin hooks, so rolldown's timing
    // report would name them on every build: that time is the build's work, not a slow plugin.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
