import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { sitePlugin } from "./build-tools/site-plugin.ts";

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
    // Beside React Router's index.js, the host (host.js) and the start-up `npm start` runs (main.js),
    // sharing one copy of every module.
    ssr: {
      build: {
        rollupOptions: {
          input: {
            index: "virtual:react-router/server-build",
            host: "host/host.ts",
            main: "host/main.ts",
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
