/**
 * Who sent a request and to which origin, as far as the server can trust it (`TRUST_PROXY`).
 * With no trusted proxy the client is the TCP peer and the origin is the `Host`
 * header over plain HTTP; forwarding headers are ignored, since any visitor can send them. With N
 * trusted proxies the server reads the addresses the proxies appended: the chain is the
 * `X-Forwarded-For` entries followed by the TCP peer, the right-most N of them are our proxies,
 * and the entry just before them is the client (the left-most entry when the chain is shorter).
 * Whatever a visitor wrote further left is never reached.
 *
 * `X-Forwarded-For` is read when present (nginx, Caddy, HAProxy and Apache write it), otherwise
 * the standard `Forwarded` header (RFC 7239). A proxy that writes only `Forwarded` must drop an
 * `X-Forwarded-For` sent by the visitor (docs/deploy.md).
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/** The TCP peer's address, or undefined where there is no Node socket (e.g. some dev servers). */
export function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

const splitList = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);

/** `for`, `proto` and `host` of each `Forwarded` element, left to right (RFC 7239 §4). */
export function parseForwarded(value: string | undefined): Array<Partial<Record<"for" | "proto" | "host", string>>> {
  return splitList(value).map((element) => {
    const pairs: Partial<Record<"for" | "proto" | "host", string>> = {};
    for (const pair of element.split(";")) {
      const separator = pair.indexOf("=");
      if (separator < 0) continue;
      const name = pair.slice(0, separator).trim().toLowerCase();
      const raw = pair.slice(separator + 1).trim();
      const unquoted = raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
      if (name === "for" || name === "proto" || name === "host") pairs[name] = unquoted;
    }
    return pairs;
  });
}

/** `[2001:db8::1]:4711` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`; other spellings as they are. */
export function bareAddress(node: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
  if (bracketed) return bracketed[1] as string;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(node);
  return withPort ? (withPort[1] as string) : node;
}

/** The addresses the proxies recorded, left-most (farthest) first. */
function forwardedChain(c: Context): string[] {
  const xForwardedFor = splitList(c.req.header("x-forwarded-for"));
  if (xForwardedFor.length > 0) return xForwardedFor.map(bareAddress);
  return parseForwarded(c.req.header("forwarded"))
    .map((element) => element.for)
    .filter((node): node is string => node !== undefined)
    .map(bareAddress);
}

/** The entry of `chain` that `trustedHops` proxies, counted from the right, vouch for. */
function beforeTrusted<T>(chain: readonly T[], trustedHops: number): T | undefined {
  return chain[Math.max(0, chain.length - 1 - trustedHops)];
}

/** The visitor's address for the rate limit. */
export function clientAddressReader(trustProxy: number): (c: Context) => string | undefined {
  if (trustProxy <= 0) return socketAddress;
  return (c) => {
    const peer = socketAddress(c);
    const chain = [...forwardedChain(c), ...(peer === undefined ? [] : [peer])];
    return beforeTrusted(chain, trustProxy);
  };
}

/**
 * The value the outermost trusted proxy wrote in a header that each proxy may append to
 * (`X-Forwarded-Proto: https` or `https, http`), or undefined when none wrote it.
 */
function outermostTrusted<T>(values: readonly T[], trustProxy: number): T | undefined {
  if (values.length === 0) return undefined;
  return values[Math.max(0, values.length - trustProxy)];
}

/**
 * The origin the browser addressed, e.g. `https://example.com`: what a same-origin page sends as
 * `Origin`. Undefined without a usable Host.
 */
export function requestOriginReader(trustProxy: number): (c: Context) => string | undefined {
  return (c) => {
    let proto = "http";
    let host = c.req.header("host");
    if (trustProxy > 0) {
      const forwarded = parseForwarded(c.req.header("forwarded"));
      const forwardedProto = outermostTrusted(splitList(c.req.header("x-forwarded-proto")), trustProxy);
      const forwardedHost = outermostTrusted(splitList(c.req.header("x-forwarded-host")), trustProxy);
      const element = outermostTrusted(forwarded, trustProxy);
      proto = (forwardedProto ?? element?.proto ?? proto).toLowerCase();
      host = forwardedHost ?? element?.host ?? host;
    }
    if (!host || /[/?#@\\\s]/.test(host) || (proto !== "http" && proto !== "https")) return undefined;
    try {
      return new URL(`${proto}://${host}`).origin;
    } catch {
      return undefined;
    }
  };
}

export type OriginRefusal = { refused: false } | { refused: true; reason: string };

/**
 * Refuses a request a browser sent from another site: `Sec-Fetch-Site: cross-site`, or an
 * `Origin` that is neither the public origin (SITE_URL) nor the request's own origin (a page
 * served at http://127.0.0.1:3000 posts with that Origin). Requests without `Origin` (curl, old
 * browsers) pass. A browser never lets a page choose the Host it sends, so a foreign page cannot
 * make its Origin look like the request's own.
 */
export function checkOrigin(
  headers: Headers,
  allowed: { siteUrl: string; ownOrigin: string | undefined },
): OriginRefusal {
  if (headers.get("sec-fetch-site")?.trim().toLowerCase() === "cross-site") {
    return { refused: true, reason: "Sec-Fetch-Site: cross-site" };
  }
  const origin = headers.get("origin");
  if (origin === null) return { refused: false };
  let sent: string | undefined;
  try {
    sent = new URL(origin).origin;
  } catch {
    sent = undefined;
  }
  if (sent !== undefined && sent !== "null" && (sent === allowed.siteUrl || sent === allowed.ownOrigin)) {
    return { refused: false };
  }
  return {
    refused: true,
    reason: `Origin ${origin} is neither SITE_URL (${allowed.siteUrl}) nor this request's own origin (${allowed.ownOrigin ?? "unknown"})`,
  };
}
