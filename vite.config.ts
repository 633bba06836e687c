import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { sitePlugin } from "./build-tools/site-plugin.ts";

const SERVER_FOLDER = `${import.meta.dirname}/server/`;

/** The services and the host never reach the browser: a client module importing one fails the build. */
function serverOnly(): Plugin {
  return {
    name: "server-only",
    applyToEnvironment: (environment) => environment.name === "client",
    load(id) {
      if (id.startsWith(SERVER_FOLDER)) this.error(`${id} is server code: only route loaders and actions may use it.`);
    },
  };
}

export default defineConfig({
  plugins: [sitePlugin(), serverOnly(), reactRouter()],
  environments: {
    // React Router 8 ships one file per module: kept in one chunk, as it was in 7, it weighs less.
    client: {
      build: {
        rolldownOptions: {
          output: { codeSplitting: { groups: [{ name: "react-router", test: /node_modules[\\/]react-router[\\/]/ }] } },
        },
      },
    },
    // Beside React Router's index.js, the host (host.js), its render workers and the start-up `npm start`
    // runs (main.js), sharing one copy of every module, each in server/ itself: the modules find the
    // build's folder from their own place.
    ssr: {
      build: {
        rollupOptions: {
          input: {
            index: "virtual:react-router/server-build",
            host: "server/http/host.ts",
            "render-worker": "server/http/render-worker.ts",
            main: "server/main.ts",
          },
          output: { chunkFileNames: "[name]-[hash].js" },
        },
      },
    },
  },
  build: {
    // Each build has a new, empty folder (build-tools/build.mjs), which may lie outside the project.
    emptyOutDir: false,
    // React Router prerenders and analyses routes inside its plugin hooks, so rolldown's timing
    // report would name them on every build: that time is the build's work, not a slow plugin.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
