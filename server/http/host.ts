/**
 * The HTTP host as the build compiles it, in one bundle with the app: React Router's server build
 * and the Hono app around it. server/main.ts loads this module through Vite under `npm run dev` and
 * from build/server/host.js in production, so the routes, the host and the services they share
 * are one copy each.
 */
import * as build from "virtual:react-router/server-build";
import { createHttpApp, type HttpOptions } from "./app.ts";

export function createHost(options: Omit<HttpOptions, "build">) {
  return createHttpApp({ ...options, build });
}
