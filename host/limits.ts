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
 *   connection is closed at once instead of being accepted into a queue that ties up memory;
 * - a connection that sends no byte for FIRST_BYTE_TIMEOUT_MS before its first request is closed:
 *   one that is opened and left silent holds a place and memory for nothing;
 * - one client address holds at most MAX_CONNECTIONS_PER_ADDRESS of them (100 by default; a
 *   browser opens about 6), so that one address cannot take every place. Behind trusted proxies
 *   (TRUST_PROXY > 0) every connection comes from a proxy, so this cap is not applied: the proxy
 *   limits its clients (deploy/nginx/creator-site.conf).
 */
import type { IncomingMessage, Server, ServerOptions } from "node:http";
import type { Socket } from "node:net";
import type { Config } from "../server/config.ts";

export const HEADERS_TIMEOUT_MS = 10_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
export const CONNECTIONS_CHECKING_INTERVAL_MS = 2_000;
export const FIRST_BYTE_TIMEOUT_MS = 5_000;

type Limits = Pick<Config, "requestTimeoutSeconds" | "maxConnections" | "maxConnectionsPerAddress" | "trustProxy">;

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

/** What can only be set on the server once made: the caps and the silent connection's timeout. */
export function applyConnectionCap(server: Server, config: Limits): void {
  server.maxConnections = config.maxConnections;
  const perAddress = config.trustProxy > 0 ? Number.POSITIVE_INFINITY : config.maxConnectionsPerAddress;
  const open = new Map<string, number>();
  const waitingForFirstRequest = new WeakSet<Socket>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
    // With no 'timeout' listener of ours, Node's server destroys the socket when it fires; any byte
    // received restarts it.
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS);
    waitingForFirstRequest.add(socket);
  });
  server.on("request", (request: IncomingMessage) => {
    // From the first request on, the request and keep-alive timeouts above take over.
    if (waitingForFirstRequest.delete(request.socket)) request.socket.setTimeout(0);
  });
}
