/**
 * Timeouts and the connection cap of the Node HTTP server, set explicitly rather
 * than left at Node's defaults, under which a client sending one byte a second held a connection
 * for 5 minutes:
 * - a request's headers must arrive within 10 s (or the request timeout, when shorter), its
 *   headers and body within REQUEST_TIMEOUT_SECONDS (20 s by default; a 64 KB form post needs a
 *   fraction of that on any real connection); Node checks every 2 s, so a slow body is cut at
 *   most 2 s after the limit, with a 408;
 * - an idle keep-alive connection is closed after 5 s (a proxy in front must keep its own idle
 *   upstream connections for less: deploy/nginx/creator-site.conf says 4 s);
 * - at most MAX_CONNECTIONS connections are open at once (1000 by default); beyond that a new
 *   connection is closed at once instead of being accepted into a queue that ties up memory.
 */
import type { Server, ServerOptions } from "node:http";
import type { Config } from "../config.ts";

export const HEADERS_TIMEOUT_MS = 10_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
export const CONNECTIONS_CHECKING_INTERVAL_MS = 2_000;

type Limits = Pick<Config, "requestTimeoutSeconds" | "maxConnections">;

/** The options for `http.createServer` (some, like the checking interval, can only be given there). */
export function serverOptions(config: Limits): ServerOptions {
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  return {
    requestTimeout,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
  };
}

/** What can only be set on the server once made. */
export function applyConnectionCap(server: Server, config: Limits): void {
  server.maxConnections = config.maxConnections;
}
