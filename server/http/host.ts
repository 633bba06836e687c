/**
 * The HTTP host as the build compiles it, in one bundle with the app: React Router's server build,
 * the owner's address from the built content, and the Hono app around them. server/main.ts loads
 * this module through Vite under `npm run dev` and from build/server/host.js in production, so
 * the routes, the host and the services they share are one copy each.
 */
import * as build from "virtual:react-router/server-build";
import { catalogue } from "../../app/catalogue.server.ts";
import { createHttpApp, type HttpOptions } from "./app.ts";

/** Contact messages go to this address unless OWNER_EMAIL says otherwise. */
export const ownerEmail = catalogue.site.email;

export function createHost(options: Omit<HttpOptions, "build">) {
  return createHttpApp({ ...options, build });
}
