import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import { findPackageJSON } from "node:module";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import {
  buildRoot,
  buildRootOf,
  currentBuild,
  markServing,
  readBuildInfo,
  unmarkServing,
} from "../build-tools/build-folders.mjs";
import { contentRoot } from "../catalogue/content-root.ts";
import type { Owner } from "../catalogue/owner.ts";
import { readOwner } from "../catalogue/owner-file.ts";
import { startBackend } from "../services/backend.ts";
import { type Config, ConfigError, configWarnings, readConfig } from "../services/config.ts";
import { claimForServer, releaseForServer } from "../services/data-dir-claims.mjs";
import { clientAddressReader, requestOriginReader } from "./forwarded.ts";
import type * as HostModule from "./host.ts";
import { applyConnectionCap, serverOptions } from "./limits.ts";

type Host = typeof HostModule;
type HostOptions = Parameters<Host["createHost"]>[0];

function projectRoot(): string {
  const packageJson = findPackageJSON(import.meta.url);
  if (!packageJson) throw new Error("No package.json above the server: run it inside the project.");
  return dirname(packageJson);
}

const development = process.argv.includes("--dev");

/** Nothing of the app is loaded at start, so that Vite shows a content mistake as the page. */
async function developmentHost() {
  const { createServer: createViteServer } = await import("vite");
  const root = projectRoot();
  const vite = await createViteServer({ root, server: { middlewareMode: true } });
  const apps = new WeakMap<Host, Hono>();
  return {
    owner: readOwner(contentRoot(root)),
    async listen(options: HostOptions): Promise<RequestListener> {
      const handle = getRequestListener(async (request, env) => {
        const host = (await vite.ssrLoadModule("/host/host.ts")) as Host;
        const app = apps.get(host) ?? host.createHost(options);
        apps.set(host, app);
        return app.fetch(request, env);
      });
      return (request, response) => vite.middlewares(request, response, () => handle(request, response));
    },
    close: () => vite.close(),
  };
}

// A build with other code or another owner waits for a restart. Builds of the same code differ only
// by the paths React Router records as prerendered, and the chunk names that list's hash renames.
function codeAndOwner(build: string): string {
  const server = join(build, "server");
  const code = readdirSync(server, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js"))
    .map((file) =>
      readFileSync(join(server, file), "utf8")
        .replace(/^var prerender = \[[^\]]*\];$/m, "")
        .replaceAll(/-[\w-]{8}\.js\b/g, ".js"),
    )
    .sort();
  return JSON.stringify([readBuildInfo(build)?.owner, ...code]);
}

async function productionHost() {
  const own = dirname(import.meta.dirname);
  let served = buildRootOf(own) ? own : currentBuild(buildRoot(projectRoot()));
  if (!served || !existsSync(join(served, "server/host.js"))) {
    console.error("No build found: run `npm run build` (or `npm start`, which builds when needed).");
    process.exit(1);
  }
  const builds = buildRootOf(served);
  let watching: NodeJS.Timeout | undefined;
  markServing(served);
  return {
    owner: readBuildInfo(served)?.owner as Owner,
    async listen(options: HostOptions): Promise<RequestListener> {
      const serve = async (build: string) => {
        const host = (await import(pathToFileURL(join(build, "server/host.js")).href)) as Host;
        return getRequestListener(host.createHost({ ...options, clientDir: join(build, "client") }).fetch);
      };
      let listener = await serve(served as string);
      let seen = served;
      const look = async () => {
        const latest = builds && currentBuild(builds);
        if (!latest || latest === seen) return;
        seen = latest;
        try {
          if (codeAndOwner(latest) !== codeAndOwner(served as string)) {
            console.log(
              `A new build (${basename(latest)}) has new code or a new owner: restart the server to serve it.`,
            );
            return;
          }
          // Marked before it serves: no build removes it meanwhile.
          markServing(latest);
          listener = await serve(latest);
          served = latest;
          console.log(`Serving the new build ${basename(latest)}.`);
        } catch (error) {
          console.error(
            `Kept the build served: the new one (${basename(latest)}) failed to load: ${(error as Error).message}`,
          );
        }
      };
      if (builds) watching = setInterval(() => void look(), 1000).unref();
      return (request, response) => listener(request, response);
    },
    close: async () => {
      clearInterval(watching);
      unmarkServing(served as string);
    },
  };
}

const site = development ? await developmentHost() : await productionHost();
let config: Config;
try {
  config = readConfig(process.env, { ownerEmail: site.owner.email, ownerName: site.owner.name });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const sqliteDir = config.databaseUrl ? undefined : config.dataDir;
const restoring = sqliteDir && claimForServer(sqliteDir);
if (restoring) {
  console.error(restoring);
  process.exit(1);
}
process.once("exit", () => sqliteDir && releaseForServer(sqliteDir));
const backend = await startBackend(config).catch((error: unknown) => {
  console.error(`Could not open the database: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
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
  // An unsent message stays queued: slow connections or an SMTP send get 10 s.
  setTimeout(() => process.exit(0), 10_000).unref();
  await new Promise((done) => server.close(done));
  await site.close();
  await backend.close();
  process.exit(0);
};
process.once("SIGTERM", () => void stop("SIGTERM"));
process.once("SIGINT", () => void stop("SIGINT"));
