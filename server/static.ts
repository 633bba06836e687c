/**
 * The built site from build/client: prerendered pages, their .data files, hashed assets, images.
 * Files are read once and kept in memory with their brotli and gzip copies made at build time
 * (scripts/finish-build.ts). A page is served at its own path without a redirect (/notes/x reads
 * build/client/notes/x/index.html).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import { readScriptHashes } from "./security";

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
  contentType: string;
  /** Hashed build assets never change under their name. */
  immutable: boolean;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  /** Hashes of the page's inline scripts, for its Content-Security-Policy. */
  scriptHashes?: string[];
};

export function pickEncoding(acceptEncoding: string | undefined, file: StaticFile): Encoding {
  const accepted = (acceptEncoding ?? "").toLowerCase();
  if (file.bodies.br && /\bbr\b/.test(accepted)) return "br";
  if (file.bodies.gzip && /\bgzip\b/.test(accepted)) return "gzip";
  return "identity";
}

export function createStaticFiles(clientDir: string) {
  const cache = new Map<string, StaticFile | null>();
  const scriptHashesOf = readScriptHashes(clientDir);

  function load(file: string): StaticFile {
    const identity = readFileSync(file);
    const read = (suffix: string) => (existsSync(file + suffix) ? readFileSync(file + suffix) : undefined);
    const extension = extname(file);
    const stat = statSync(file);
    return {
      contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
      immutable: file.includes(`${sep}assets${sep}`),
      etag: `"${stat.size.toString(36)}-${stat.mtimeMs.toString(36)}"`,
      bodies: { identity, br: read(".br"), gzip: read(".gz") },
      scriptHashes: extension === ".html" ? scriptHashesOf(file) : undefined,
    };
  }

  function resolve(pathname: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes("\0")) return null;
    const relative = normalize(decoded).replace(/^[/\\]+/, "");
    if (relative.startsWith("..") || /\.(br|gz)$/.test(relative)) return null;
    for (const candidate of [join(clientDir, relative), join(clientDir, relative, "index.html")]) {
      if (candidate.startsWith(clientDir) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return null;
  }

  /** The file for a URL path, or null when the build has none (React Router answers then). */
  return function lookup(pathname: string): StaticFile | null {
    const cached = cache.get(pathname);
    if (cached !== undefined) return cached;
    const path = resolve(pathname);
    const file = path ? load(path) : null;
    if (cache.size < 10_000) cache.set(pathname, file);
    return file;
  };
}
