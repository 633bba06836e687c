/**
 * Server renders without amplification. Every content page is a prerendered
 * file, so a render per request is needed only for the filtered lists (/notes?q=…&tag=…&sort=…)
 * and the site search's results (/search?q=…),
 * the 404 screen, form posts and the newsletter's token pages. Before this, any query string sent
 * a request to a full render: 20 connections on /notes?q=x took the API from 3 ms to 0.75 s.
 *
 * - A query changes only the filtered lists. On any other prerendered page it is ignored
 *   (`/about?utm_source=x` is the file); on a list it is read as the list reads it and written
 *   back in one spelling (`filteredListKey`), so `?tag=A&q=x`, `?q=x&tag=A&utm_source=y` and
 *   `?q=a&q=x&tag=A&sort=date` are one cache entry, and a query that does not narrow or sort the
 *   list is the prerendered file.
 * - A rendered list is kept in an LRU bounded in bytes (RENDER_CACHE_MB) with its brotli and
 *   gzip copies, made off the main thread; concurrent requests for one key wait for one render.
 * - At most RENDER_CONCURRENCY renders run at once, one per client (its next few wait briefly);
 *   one more is answered with 503 and Retry-After instead of queueing, so the API and the
 *   prerendered files, which never render, keep their latency while the lists are hammered.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import type { Context } from "hono";
import { LRUCache } from "lru-cache";
import { ownInlineHashes } from "./security.ts";
import { bodyBytes, type StaticFile } from "./static.ts";

/** Seconds a client is told to wait after a 503: a render takes tens of milliseconds. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

export const BUSY_MESSAGE = "The server is busy. Please try again in a few seconds.";

/**
 * The cache key of a prerendered page asked for with `search`, or null when the page is the
 * prerendered file: its route reads no query (`canonicalQuery` absent), or the query does not
 * narrow or sort it.
 */
export function filteredListKey(
  urlPath: string,
  search: string,
  canonicalQuery?: (params: URLSearchParams) => string,
): string | null {
  const query = canonicalQuery?.(new URLSearchParams(search));
  return query ? urlPath + query : null;
}

type Release = () => void;

export type RenderLimiter = {
  /**
   * A release function once `client` may render: at once when it has no render running and a slot
   * is free; after its running render when it has one (at most MAX_WAITING_PER_CLIENT wait, for
   * CLIENT_WAIT_MS at most); otherwise null.
   */
  acquire(client: string): Promise<Release | null>;
  running(): number;
};

/** A client's renders beyond its running one that may wait for it, and how long. */
export const MAX_WAITING_PER_CLIENT = 4;
export const CLIENT_WAIT_MS = 2_000;

/**
 * At most `maxConcurrent` renders at once, and one per client, its others waiting their turn
 * briefly: two connections of one client cannot take every render, and visitors sharing an
 * address (a household, a carrier's NAT) wait a render's time instead of being refused
 * (docs/decisions/one-render-per-client.md).
 */
export function createRenderLimiter(maxConcurrent: number, waitMs = CLIENT_WAIT_MS): RenderLimiter {
  /** The clients with a render running, each with the renders waiting for it. */
  const clients = new Map<string, Array<(release: Release) => void>>();

  function releaseOf(client: string): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The client's next render takes its slot at once, before anyone else can.
      const next = clients.get(client)?.shift();
      if (next) next(releaseOf(client));
      else clients.delete(client);
    };
  }

  return {
    async acquire(client) {
      const waiting = clients.get(client);
      if (!waiting) {
        if (clients.size >= maxConcurrent) return null;
        clients.set(client, []);
        return releaseOf(client);
      }
      if (waiting.length >= MAX_WAITING_PER_CLIENT) return null;
      return new Promise((resolve) => {
        const turn = (release: Release) => {
          clearTimeout(timer);
          resolve(release);
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(turn), 1);
          resolve(null);
        }, waitMs);
        waiting.push(turn);
      });
    },
    running: () => clients.size,
  };
}

/** The 503 of a saturated server: plain, immediate, with the wait the client should make. */
export function busyAnswer(c: Context): Response {
  return c.text(BUSY_MESSAGE, 503, {
    "Retry-After": String(BUSY_RETRY_AFTER_SECONDS),
    "Cache-Control": "no-store",
  });
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A rendered page held like a prerendered file, so both are answered by the same code. */
async function renderedPage(urlPath: string, rendered: string): Promise<StaticFile> {
  const { html, hashes } = ownInlineHashes(rendered);
  const identity = Buffer.from(html);
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }),
    gzipAsync(identity, { level: 6 }),
  ]);
  return {
    urlPath,
    contentType: "text/html; charset=utf-8",
    immutable: false,
    etag: `"r-${createHash("sha256").update(identity).digest("base64url").slice(0, 22)}"`,
    bodies: { identity, br, gzip: gz },
    inlineHashes: hashes,
  };
}

export type CachedRender = { kind: "page"; page: StaticFile } | { kind: "busy" };

/**
 * The rendered filtered lists. `render` makes the page for a key's canonical URL; it runs under
 * the limiter, and must answer 200 with HTML (a list has nothing else to say).
 */
export function createRenderCache(maxBytes: number, limiter: RenderLimiter) {
  // Bounded in bytes, not entries: what distinct queries can make it hold is capped whatever their number.
  const pages = new LRUCache<string, StaticFile>({
    maxSize: maxBytes,
    sizeCalculation: (page) => Math.max(1, bodyBytes(page)),
  });
  /** Renders under way by key: null when the client's turn never came (a 503, for all who asked). */
  const rendering = new Map<string, Promise<StaticFile | null>>();

  async function renderOnce(key: string, urlPath: string, client: string, render: () => Promise<Response>) {
    const release = await limiter.acquire(client);
    if (!release) return null;
    try {
      const response = await render();
      if (response.status !== 200 || !response.headers.get("Content-Type")?.startsWith("text/html")) {
        throw new Error(`Rendering ${key} answered ${response.status} ${response.headers.get("Content-Type")}`);
      }
      const page = await renderedPage(urlPath, await response.text());
      pages.set(key, page);
      return page;
    } finally {
      release();
    }
  }

  return {
    async page(key: string, urlPath: string, client: string, render: () => Promise<Response>): Promise<CachedRender> {
      const cached = pages.get(key);
      if (cached) return { kind: "page", page: cached };
      let work = rendering.get(key);
      if (!work) {
        work = renderOnce(key, urlPath, client, render).finally(() => rendering.delete(key));
        rendering.set(key, work);
      }
      const page = await work;
      return page ? { kind: "page", page } : { kind: "busy" };
    },
    size: () => ({ entries: pages.size, bytes: pages.calculatedSize }),
  };
}
