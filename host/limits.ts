import type { IncomingMessage, Server, ServerOptions } from "node:http";
import type { Socket } from "node:net";
import type { Config } from "../services/config.ts";

export const HEADERS_TIMEOUT_MS = 10_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
export const CONNECTIONS_CHECKING_INTERVAL_MS = 2_000;
export const FIRST_BYTE_TIMEOUT_MS = 5_000;

type Limits = Pick<Config, "requestTimeoutSeconds" | "maxConnections" | "maxConnectionsPerAddress" | "trustProxy">;

/** Node's defaults let a client sending a byte a second hold a connection for 5 minutes. */
export function serverOptions(config: Limits): ServerOptions {
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  return {
    requestTimeout,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
  };
}

/** Node has neither; behind trusted proxies every connection is a proxy's, which limits its clients. */
export function applyConnectionCap(server: Server, config: Limits): void {
  server.maxConnections = config.maxConnections;
  const perAddress = config.trustProxy > 0 ? Number.POSITIVE_INFINITY : config.maxConnectionsPerAddress;
  const open = new Map<string, number>();
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
    // With no 'timeout' listener of ours, Node's server destroys the socket; any byte restarts it.
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS);
  });
  // From the first request on, the request and keep-alive timeouts take over.
  server.on("request", (request: IncomingMessage) => request.socket.setTimeout(0));
}
