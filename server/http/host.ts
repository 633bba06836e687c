/**
 * The HTTP host as the build compiles it, in one bundle with the app: React Router's server build
 * and the Hono app around it. server/main.ts loads this module through Vite under `npm run dev` and
 * from build/server/host.js in production, so the routes, the host and the services they share
 * are one copy each. In production the build's not-found page, beside build/client, answers
 * every path with no file, and filtered lists are rendered by worker threads running
 * build/server/render-worker.js; under `npm run dev` everything renders here, through Vite.
 */
import { join } from "node:path";
import * as build from "virtual:react-router/server-build";
import { prepareSiteSearch } from "../../app/search.server.ts";
import { createHttpApp, type HttpOptions } from "./app.ts";
import { createRenderPool } from "./render-pool.ts";

/** The app, and `close` to stop its render workers once a server has switched to another build. */
export function createHost(options: Omit<HttpOptions, "build" | "notFound" | "renderList">) {
  prepareSiteSearch();
  if (!options.clientDir) return Object.assign(createHttpApp({ ...options, build }), { close: async () => {} });
  const pool = createRenderPool(join(import.meta.dirname, "render-worker.js"), options.renders.concurrency);
  const app = createHttpApp({
    ...options,
    build,
    renderList: pool.render,
  });
  return Object.assign(app, { close: pool.close });
}
