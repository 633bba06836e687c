import { reactRouter } from "@react-router/dev/vite";
import type { ChunkingContext } from "rolldown";
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

// Built once per build, on the first module the chunking asks about.
let rootGraph: Set<string> | undefined;
function importedByRoot(id: string, context: ChunkingContext): boolean {
  if (!rootGraph) {
    const graph = new Set<string>();
    const visit = (module: string) => {
      for (const imported of context.getModuleInfo(module)?.importedIds ?? []) {
        if (!graph.has(imported)) visit(graph.add(imported) && imported);
      }
    };
    visit(`${import.meta.dirname}/app/root.tsx`);
    rootGraph = graph;
  }
  return rootGraph.has(id);
}

export default defineConfig({
  plugins: [sitePlugin(), serverOnly(), reactRouter()],
  environments: {
    // Every hydrated page loads React, React Router and what the root route imports: two chunks,
    // not a score of small files that each compress on their own.
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
                { name: (id, context) => (importedByRoot(id, context) ? "shell" : null) },
              ],
            },
          },
        },
      },
    },
    // Beside React Router's index.js, the host (host.js), the start-up `npm start` runs (main.js) and the
    // build's image step (images.js), sharing one copy of every module.
    ssr: {
      build: {
        rollupOptions: {
          input: {
            index: "virtual:react-router/server-build",
            host: "host/host.ts",
            main: "host/main.ts",
            images: "app/images.server.ts",
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
