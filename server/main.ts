/**
 * Starts the server: the HTTP host built with the app (server/http/host.ts), the validated
 * configuration, the backend (SQLite or PostgreSQL, mail workers), then listens. With --dev the
 * host and the app come from Vite's development server, with hot reload. Stops cleanly on SIGTERM
 * and SIGINT.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import { contentRoot, OWNER_FILE } from "../catalogue/content-root.ts";
import type { Owner } from "../catalogue/owner.ts";
import { readOwner } from "../catalogue/owner-file.ts";
import { setRunningBackend, startBackend } from "./backend.ts";
import { type Config, ConfigError, configWarnings, readConfig } from "./config.ts";
import { clientAddressReader, requestOriginReader } from "./http/forwarded.ts";
import type * as HostModule from "./http/host.ts";
import { applyConnectionCap, serverOptions } from "./http/limits.ts";

type Host = typeof HostModule;
type Listener = (request: IncomingMessage, response: ServerResponse) => void;

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

function readConfigOrExit(owner: Owner): Config {
  try {
    return readConfig(process.env, { ownerEmail: owner.email, ownerName: owner.name });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * Vite serves the modules and assets; the host module is loaded per request (Vite re-evaluates it
 * and the routes it imports after an edit), and each copy gets its own Hono app. Nothing of the
 * app is loaded at start: with a content mistake the server still starts, and Vite's catalogue
 * plugin shows the mistake as the page until it is fixed. The owner's name and address are read from
 * content/site.yaml alone for the same reason.
 */
async function developmentHost() {
  const { createServer: createViteServer } = await import("vite");
  const vite = await createViteServer({ root, server: { middlewareMode: true } });
  const load = () => vite.ssrLoadModule("/server/http/host.ts") as Promise<Host>;
  const apps = new WeakMap<Host, Hono>();
  return {
    owner: readOwner(contentRoot(root)),
    async listen(options: Parameters<Host["createHost"]>[0]): Promise<Listener> {
      const handle = getRequestListener(async (request, env) => {
        const host = await load();
        const app = apps.get(host) ?? host.createHost(options);
        apps.set(host, app);
        return app.fetch(request, env);
      });
      return (request, response) => vite.middlewares(request, response, () => handle(request, response));
    },
    close: () => vite.close(),
  };
}

/** The owner's name and address come with the build (scripts/finish-build.ts); the app is loaded once the configuration is good. */
async function productionHost() {
  const hostPath = join(buildDir, "server/host.js");
  if (!existsSync(hostPath)) {
    console.error("No build found: run `npm run build` (or `npm start`, which builds when needed).");
    process.exit(1);
  }
  return {
    owner: JSON.parse(readFileSync(join(buildDir, OWNER_FILE), "utf8")) as Owner,
    async listen(options: Parameters<Host["createHost"]>[0]): Promise<Listener> {
      const host = (await import(pathToFileURL(hostPath).href)) as Host;
      return getRequestListener(host.createHost({ ...options, clientDir: join(buildDir, "client") }).fetch);
    },
    close: async () => {},
  };
}

async function main() {
  const site = development ? await developmentHost() : await productionHost();
  const config = readConfigOrExit(site.owner);
  const backend = await startBackend(config).catch((error: unknown) => {
    // An unreachable or refusing PostgreSQL is a setting to fix, not a crash to read.
    console.error(`Could not open the database: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
  setRunningBackend(backend);
  for (const warning of configWarnings(process.env, config)) console.warn(warning);
  const listener = await site.listen({
    mode: development ? "development" : "production",
    siteUrl: config.siteUrl,
    backend,
    clientIp: clientAddressReader(config.trustProxy),
    ownOrigin: requestOriginReader(config.trustProxy),
    renders: { concurrency: config.renderConcurrency, cacheBytes: config.renderCacheBytes },
  });

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
    await site.close();
    await backend.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

await main();
