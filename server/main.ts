/**
 * Starts the production server: validated configuration, the backend (SQLite, outbox), the HTTP
 * layer on the built site. Stops cleanly on SIGTERM and SIGINT.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { parse as parseYaml } from "yaml";
import { ConfigError, readConfig } from "./config";
import { createHttpApp } from "./http";

const root = resolve(import.meta.dirname, "..");
const buildDir = join(root, "build");

function ownerEmail(): string {
  const site = parseYaml(readFileSync(join(root, "content/site.yaml"), "utf8")) as { email?: string };
  return site.email ?? "owner@localhost";
}

async function main() {
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(process.env, { ownerEmail: ownerEmail() });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const serverBuildPath = join(buildDir, "server/index.js");
  if (!existsSync(serverBuildPath)) {
    console.error("No build found: run `npm run build` (or `npm start`, which builds when needed).");
    process.exit(1);
  }
  const build = (await import(pathToFileURL(serverBuildPath).href)) as ServerBuild;
  const app = createHttpApp({ build, clientDir: join(buildDir, "client"), siteUrl: config.siteUrl });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    console.log(`Serving on http://${config.host}:${info.port}`);
  });
  server.on("error", (error) => {
    console.error(`Could not listen on ${config.host}:${config.port}: ${error.message}`);
    process.exit(1);
  });

  const stop = (signal: string) => {
    console.log(`${signal}: stopping`);
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

await main();
