/**
 * The built site from build/client: prerendered pages, their .data files, hashed assets, images.
 * Files are kept in memory with their brotli and gzip copies made at build time
 * (scripts/finish-build.ts), keyed by the file they resolve to (never by the request's spelling:
 * `/notes/`, `/notes//index.html` and `/%6eotes/` share one entry) in an LRU bounded in bytes.
 * A path with no file is not cached: a miss costs a few stat calls, never memory. A page is served
 * at its own path without a redirect (/notes/x reads build/client/notes/x/index.html).
 * Not Hono's `serveStatic`: it reads the disk on every request and knows no ETag and no page's own
 * Content-Security-Policy (the hashes of its inline scripts), which server/http/app.ts adds from here.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize, relative, sep } from "node:path";
import { LRUCache } from "lru-cache";
import { type InlineHashes, readInlineHashes } from "./security.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".data": "text/x-script",
  ".xml": "application/xml; charset=utf-8",
  ".atom": "application/atom+xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
};

export type Encoding = "br" | "gzip" | "identity";

export type StaticFile = {
  /** The file's own URL path: "/notes" for notes/index.html, whatever spelling asked for it. */
  urlPath: string;
  contentType: string;
  /** Hashed build assets never change under their name. */
  immutable: boolean;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  /** Hashes of the page's inline scripts and styles, for its Content-Security-Policy. */
  inlineHashes?: InlineHashes;
};

export function pickEncoding(acceptEncoding: string | undefined, file: StaticFile): Encoding {
  const accepted = (acceptEncoding ?? "").toLowerCase();
  if (file.bodies.br && /\bbr\b/.test(accepted)) return "br";
  if (file.bodies.gzip && /\bgzip\b/.test(accepted)) return "gzip";
  return "identity";
}

/** Each encoding's bytes have their own tag, so that a cache never revalidates one with another's. */
export const encodedETag = (etag: string, encoding: Encoding) =>
  encoding === "identity" ? etag : etag.replace(/"$/, `-${encoding}"`);

export const bodyBytes = (file: Pick<StaticFile, "bodies">) =>
  Object.values(file.bodies).reduce((total, body) => total + (body?.byteLength ?? 0), 0);

/** 32 MB holds a typical site's pages and assets with both compressed copies. */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/** Linux's longest file name; a path is looked for on disk only below these lengths. */
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 1024;

/** Why no file can have this request path (it is answered 404 and logged), or null when one may. */
export function unreadablePath(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return "bad percent-encoding";
  }
  if (decoded.includes("\0")) return "a NUL byte";
  if (Buffer.byteLength(decoded) > MAX_PATH_BYTES) return `longer than ${MAX_PATH_BYTES} bytes`;
  if (decoded.split("/").some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) {
    return `a segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return null;
}

/** A file's stat, or null for any path that names none (a file used as a folder: ENOTDIR). */
function statOrNull(path: string) {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

export function createStaticFiles(clientDir: string, maxCacheBytes = DEFAULT_CACHE_BYTES) {
  const clientRoot = clientDir.endsWith(sep) ? clientDir : clientDir + sep;
  const cache = new LRUCache<string, { file: StaticFile; mtimeMs: number }>({
    maxSize: maxCacheBytes,
    sizeCalculation: (entry) => Math.max(1, bodyBytes(entry.file)),
  });
  const inlineHashesOf = readInlineHashes(clientDir);

  function load(file: string): StaticFile {
    const identity = readFileSync(file);
    const read = (suffix: string) => (existsSync(file + suffix) ? readFileSync(file + suffix) : undefined);
    const extension = extname(file);
    const stat = statSync(file);
    const urlPath = `/${relative(clientDir, file).split(sep).join("/")}`.replace(/\/?index\.html$/, "") || "/";
    return {
      urlPath,
      contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
      immutable: file.includes(`${sep}assets${sep}`),
      etag: `"${stat.size.toString(36)}-${stat.mtimeMs.toString(36)}"`,
      bodies: { identity, br: read(".br"), gzip: read(".gz") },
      inlineHashes: extension === ".html" ? inlineHashesOf(file) : undefined,
    };
  }

  function resolve(pathname: string): { path: string; mtimeMs: number } | null {
    if (unreadablePath(pathname)) return null;
    const inside = normalize(decodeURIComponent(pathname)).replace(/^[/\\]+/, "");
    if (inside.startsWith("..") || /\.(br|gz)$/.test(inside)) return null;
    for (const candidate of [join(clientDir, inside), join(clientDir, inside, "index.html")]) {
      if (!candidate.startsWith(clientRoot)) continue;
      const stat = statOrNull(candidate);
      if (stat?.isFile()) return { path: candidate, mtimeMs: stat.mtimeMs };
    }
    return null;
  }

  /** The file for a URL path, or null when the build has none (React Router answers then). */
  function lookup(pathname: string): StaticFile | null {
    const found = resolve(pathname);
    if (!found) return null;
    const cached = cache.get(found.path);
    if (cached?.mtimeMs === found.mtimeMs) return cached.file;
    const file = load(found.path);
    cache.set(found.path, { file, mtimeMs: found.mtimeMs });
    return file;
  }

  return Object.assign(lookup, {
    cacheSize: () => ({ files: cache.size, bytes: cache.calculatedSize }),
  });
}

/** The not-found page and its data, rendered once by the build beside build/client (scripts/finish-build.ts). */
export const NOT_FOUND_PAGE_FILE = "not-found.html";
export const NOT_FOUND_DATA_FILE = "not-found.data";

export type NotFoundFiles = { page: StaticFile; data: StaticFile };

/** The build's not-found page and data, held in memory with their compressed copies. */
export function readNotFoundFiles(buildDir: string): NotFoundFiles {
  function read(name: string): StaticFile {
    const file = join(buildDir, name);
    const identity = readFileSync(file);
    const copy = (suffix: string) => (existsSync(file + suffix) ? readFileSync(file + suffix) : undefined);
    const html = extname(file) === ".html";
    return {
      urlPath: "",
      contentType: CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
      immutable: false,
      etag: `"nf-${statSync(file).mtimeMs.toString(36)}"`,
      bodies: { identity, br: copy(".br"), gzip: copy(".gz") },
      inlineHashes: html ? readInlineHashes(join(buildDir, "client"))(file) : undefined,
    };
  }
  return { page: read(NOT_FOUND_PAGE_FILE), data: read(NOT_FOUND_DATA_FILE) };
}
