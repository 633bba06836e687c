/**
 * Starts the server: validated configuration, the backend (SQLite or PostgreSQL, outbox), the HTTP layer on the
 * built site — or, with --dev, on Vite's development server with hot reload. Stops cleanly on
 * SIGTERM and SIGINT.
 */
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { contentRoot } from "../catalogue/content-root.ts";
import { readOwner } from "../catalogue/owner-file.ts";
import { startBackend } from "./backend.ts";
import { type Config, ConfigError, configWarnings, readConfig } from "./config.ts";
import { clientAddressReader, requestOriginReader } from "./forwarded.ts";
import { createHttpApp } from "./http.ts";
import { applyConnectionCap, serverOptions } from "./limits.ts";

/** The project folder: this module runs from server/ (development) or compiled from build/server/. */
function projectRoot(from: string): string {
  if (existsSync(join(from, "package.json"))) return from;
  const parent = dirname(from);
  if (parent === from) throw new Error("No package.json above the server: run it inside the project.");
  return projectRoot(parent);
}

const root = projectRoot(import.meta.dirname);
const buildDir = join(root, "build");
const development = process.argv.includes("--dev");

function readConfigOrExit(): Config {
  try {
    return readConfig(process.env, { ownerEmail: readOwner(contentRoot(root)).email });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** Vite serves the modules and assets; React Router renders through the same HTTP layer as in production. */
async function developmentListener(options: Omit<Parameters<typeof createHttpApp>[0], "build" | "mode">) {
  const { createServer: createViteServer } = await import("vite");
  const vite = await createViteServer({ root, server: { middlewareMode: true } });
  const build = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  const handle = getRequestListener(createHttpApp({ ...options, build, mode: "development" }).fetch);
  const listener: Listener = (request, response) =>
    vite.middlewares(request, response, () => handle(request, response));
  return { listener, close: () => vite.close() };
}

async function main() {
  const config = readConfigOrExit();
  const backend = await startBackend(config).catch((error: unknown) => {
    // An unreachable or refusing PostgreSQL is a setting to fix, not a crash to read.
    console.error(`Could not open the database: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
  for (const warning of configWarnings(process.env, config)) console.warn(warning);
  const shared = {
    siteUrl: config.siteUrl,
    api: backend.api,
    services: backend.services,
    clientIp: clientAddressReader(config.trustProxy),
    ownOrigin: requestOriginReader(config.trustProxy),
    newsletterLinks: backend.newsletterLinks,
    renders: { concurrency: config.renderConcurrency, cacheBytes: config.renderCacheBytes },
  };

  let listener: Listener;
  let closeDevelopment = async () => {};
  if (development) {
    const dev = await developmentListener(shared);
    listener = dev.listener;
    closeDevelopment = dev.close;
  } else {
    const serverBuildPath = join(buildDir, "server/index.js");
    if (!existsSync(serverBuildPath)) {
      console.error("No build found: run `npm run build` (or `npm start`, which builds when needed).");
      process.exit(1);
    }
    const build = (await import(pathToFileURL(serverBuildPath).href)) as ServerBuild;
    const app = createHttpApp({ ...shared, build, mode: "production", clientDir: join(buildDir, "client") });
    listener = getRequestListener(app.fetch);
  }

  const server = createServer(serverOptions(config), listener);
  applyConnectionCap(server, config);
  server.on("error", (error) => {
    console.error(`Could not listen on ${config.host}:${config.port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    console.log(`Serving on http://${config.host}:${port}${development ? " (development)" : ""}`);
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    // Give up waiting for slow connections or an SMTP send after 10 s; an unsent message stays queued.
    setTimeout(() => process.exit(0), 10_000).unref();
    server.closeIdleConnections();
    await new Promise((done) => server.close(done));
    await closeDevelopment();
    await backend.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

await main();
