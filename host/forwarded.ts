import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { orUndefined } from "../catalogue/present.ts";

export const socketAddress = (c: Context) => orUndefined(() => getConnInfo(c).remote.address);

const splitList = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);

/** `for`, `proto` and `host` of each `Forwarded` element (RFC 7239), left to right. */
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

export function bareAddress(node: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
  if (bracketed) return bracketed[1] as string;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(node);
  return withPort ? (withPort[1] as string) : node;
}

/** X-Forwarded-For (nginx, Caddy, HAProxy, Apache), else Forwarded; a proxy writing only the latter must drop the former. */
function forwardedChain(c: Context): string[] {
  const xForwardedFor = splitList(c.req.header("x-forwarded-for"));
  if (xForwardedFor.length > 0) return xForwardedFor.map(bareAddress);
  return parseForwarded(c.req.header("forwarded"))
    .map((element) => element.for)
    .filter((node): node is string => node !== undefined)
    .map(bareAddress);
}

/** The visitor's address: with N trusted proxies, the entry just left of the N right-most of the chain ending at the peer. */
export function clientAddressReader(trustProxy: number): (c: Context) => string | undefined {
  if (trustProxy <= 0) return socketAddress;
  return (c) => {
    const peer = socketAddress(c);
    const chain = [...forwardedChain(c), ...(peer === undefined ? [] : [peer])];
    return chain[Math.max(0, chain.length - 1 - trustProxy)];
  };
}

/** What the outermost trusted proxy wrote in a header each proxy may append to. */
const outermostTrusted = <T>(values: readonly T[], trustProxy: number): T | undefined =>
  values[Math.max(0, values.length - trustProxy)];

/** The origin the browser addressed, which a same-origin page sends as `Origin`; forwarded values only from trusted proxies. */
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
    return URL.parse(`${proto}://${host}`)?.origin;
  };
}

/** A browser's cross-site request is refused; one without `Origin` (curl, old browsers) passes. */
export function checkOrigin(
  headers: Headers,
  allowed: { siteUrl: string; ownOrigin: string | undefined },
): { refused: false } | { refused: true; reason: string } {
  if (headers.get("sec-fetch-site")?.trim().toLowerCase() === "cross-site") {
    return { refused: true, reason: "Sec-Fetch-Site: cross-site" };
  }
  const origin = headers.get("origin");
  const sent = origin === null ? undefined : URL.parse(origin)?.origin;
  if (origin === null || (sent && sent !== "null" && (sent === allowed.siteUrl || sent === allowed.ownOrigin))) {
    return { refused: false };
  }
  return {
    refused: true,
    reason: `Origin ${origin} is neither SITE_URL (${allowed.siteUrl}) nor this request's own origin (${allowed.ownOrigin ?? "unknown"})`,
  };
}
