/**
 * Security headers for every response (DESIGN §8). Scripts run only from our own origin or, for
 * the few inline scripts of a page, by the hash of their exact text.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { Parser } from "htmlparser2";
import { EMBED_ORIGINS } from "../catalogue/embeds.ts";

/**
 * The CSP source of every inline script of a page: our own (theme, signed-up flag) and those React
 * Router writes (hydration context, module loader, streamed data), which it offers no hook to
 * name. The page is read by an HTML tokenizer, so the hash is that of the exact text a browser runs.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  let script: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "script" && !("src" in attributes)) script = "";
      },
      ontext(text) {
        if (script !== undefined) script += text;
      },
      onclosetag(name) {
        if (name !== "script" || script === undefined) return;
        hashes.add(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
        script = undefined;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return [...hashes];
}

/** Where the build records the inline-script hashes of every prerendered page (build/script-hashes.json). */
export const SCRIPT_HASHES_FILE = "script-hashes.json";

/** The hashes of every page under build/client, by its path there ("notes/x/index.html"), for the build to write. */
export function prerenderedScriptHashes(clientDir: string, pages: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(
    pages.map((page) => [page.split(sep).join("/"), inlineScriptHashes(readFileSync(join(clientDir, page), "utf8"))]),
  );
}

/** The recorded hashes of a prerendered page file; a page the build did not record has none. */
export function readScriptHashes(clientDir: string): (file: string) => string[] {
  const manifest = join(clientDir, "..", SCRIPT_HASHES_FILE);
  const hashes: Record<string, string[]> = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")) : {};
  return (file) => hashes[relative(clientDir, file).split(sep).join("/")] ?? [];
}

export function contentSecurityPolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(" ")}`.trim(),
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${Object.values(EMBED_ORIGINS).join(" ")}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers for every answer, HTML or not; HTML answers add a Content-Security-Policy. */
export function baseSecurityHeaders(siteUrl: string): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  if (siteUrl.startsWith("https:")) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}
