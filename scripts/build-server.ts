/**
 * Runs after `react-router build`: compiles the production server (server/main.ts and what it
 * imports) to plain JavaScript in build/server/main.js, so `npm start` runs no TypeScript loader.
 * Packages stay external (better-sqlite3 is native; the others are read from node_modules as they
 * are). build/server/site-url.js lets `npm start` compare SITE_URL with the build's without TypeScript.
 */
import { join } from "node:path";
import { build } from "vite";

export const SERVER_ENTRY = "main.js";

export async function buildServer(root: string, buildDirectory: string): Promise<void> {
  await build({
    configFile: false,
    root,
    logLevel: "warn",
    build: {
      ssr: true,
      target: "node20",
      outDir: join(buildDirectory, "server"),
      emptyOutDir: false,
      copyPublicDir: false,
      rolldownOptions: {
        input: { main: join(root, "server/main.ts"), "site-url": join(root, "catalogue/site-url.ts") },
        output: { entryFileNames: "[name].js", chunkFileNames: "server-[name]-[hash].js" },
      },
    },
  });
}
