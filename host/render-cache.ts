import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import type { Context } from "hono";
import { LRUCache } from "lru-cache";
import { ownInlineHashes } from "../app/lib/inline-hashes.server.ts";

const BUSY_RETRY_AFTER_SECONDS = 2;
const BUSY_MESSAGE = "The server is busy. Please try again in a few seconds.";
export const MAX_WAITING_PER_CLIENT = 4;
const CLIENT_WAIT_MS = 2_000;

/** The cache key of a page asked for with `search`, or null when the route reads no query or this one narrows nothing. */
export function filteredListKey(path: string, search: string, canonicalQuery?: (params: URLSearchParams) => string) {
  const query = canonicalQuery?.(new URLSearchParams(search));
  return query ? path + query : null;
}

type Release = () => void;

/** At most `maxConcurrent` renders, one per client; a client's next few wait for its running one (docs/decisions/one-render-per-client.md). */
export function createRenderLimiter(maxConcurrent: number, waitMs = CLIENT_WAIT_MS) {
  const clients = new Map<string, Array<(release: Release) => void>>();

  function releaseOf(client: string): Release {
    return () => {
      const next = clients.get(client)?.shift();
      if (next) next(releaseOf(client));
      else clients.delete(client);
    };
  }

  return {
    async acquire(client: string): Promise<Release | null> {
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

type RenderLimiter = ReturnType<typeof createRenderLimiter>;

export function busyAnswer(c: Context): Response {
  return c.text(BUSY_MESSAGE, 503, { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" });
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export async function keptRender(response: Response) {
  const contentType = response.headers.get("Content-Type") ?? "text/html";
  const { html, hashes } = ownInlineHashes(await response.text());
  const identity = Buffer.from(html);
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }),
    gzipAsync(identity, { level: 6 }),
  ]);
  const etag = createHash("sha256").update(identity).digest("base64url").slice(0, 22);
  return {
    contentType: contentType.startsWith("text/html") ? "text/html; charset=utf-8" : contentType,
    etag,
    bodies: { identity, br, gzip: gz },
    inlineHashes: hashes,
  };
}

export type Rendered = Awaited<ReturnType<typeof keptRender>>;

export function pickEncoding(acceptEncoding = ""): keyof Rendered["bodies"] {
  if (/\bbr\b/i.test(acceptEncoding)) return "br";
  return /\bgzip\b/i.test(acceptEncoding) ? "gzip" : "identity";
}

/** The rendered filtered lists, bounded in bytes whatever the number of queries; one render per key at a time. */
export function createRenderCache(maxBytes: number, limiter: RenderLimiter) {
  type Asked = { client: string; render: () => Promise<Response> };
  const pages = new LRUCache<string, Rendered, Asked>({
    maxSize: maxBytes,
    sizeCalculation: ({ bodies }) => bodies.identity.length + bodies.br.length + bodies.gzip.length,
    // A render under way finishes even when the pages kept meanwhile push its key out.
    ignoreFetchAbort: true,
    fetchMethod: async (key, _stale, { context: { client, render } }) => {
      const release = await limiter.acquire(client);
      if (!release) return undefined;
      try {
        const response = await render();
        if (response.status !== 200 || !response.headers.get("Content-Type")?.startsWith("text/html")) {
          throw new Error(`Rendering ${key} answered ${response.status} ${response.headers.get("Content-Type")}`);
        }
        return await keptRender(response);
      } finally {
        release();
      }
    },
  });

  return {
    async page(key: string, client: string, render: () => Promise<Response>) {
      const page = await pages.fetch(key, { context: { client, render } });
      return page ? ({ kind: "page", page } as const) : ({ kind: "busy" } as const);
    },
    size: () => ({ entries: pages.size, bytes: pages.calculatedSize }),
  };
}
