/**
 * The Content-Security-Policy of a page: scripts and styles come only from our own origin or, for
 * the few inline ones the app writes, by the hash of their exact text. (The headers every answer carries
 * are Hono's `secureHeaders`, in server/http/app.ts.)
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { Parser } from "htmlparser2";
import { inlineMarker } from "../app/lib/inline-marker.ts";
import { EMBED_ORIGINS } from "../catalogue/embeds.ts";

/** The CSP sources (`'sha256-…'`) of a page's inline scripts and styles. */
export type InlineHashes = { scripts: string[]; styles: string[] };

export const NO_INLINE: InlineHashes = { scripts: [], styles: [] };

/**
 * The page as the browser gets it, and the hashes of the inline scripts and styles the app wrote
 * itself: those the render marked with this thread's inline marker (app/lib/inline-marker.ts) —
 * the shell, the speculation rules, the player probe, React Router's and React's own — whose mark
 * is then removed. Anything else inline, such as a script that came in with the content, is never
 * hashed, so the policy refuses it; a JSON-LD block is data and needs none. The page is read by an
 * HTML tokenizer, so each hash is that of the exact text a browser runs.
 */
export function ownInlineHashes(rendered: string, marker = inlineMarker()): { html: string; hashes: InlineHashes } {
  const found = { script: new Set<string>(), style: new Set<string>() };
  let open: { tag: "script" | "style"; text: string } | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (attributes.nonce !== marker) return;
        if ((name === "script" && !("src" in attributes)) || name === "style") open = { tag: name, text: "" };
      },
      ontext(text) {
        if (open) open.text += text;
      },
      onclosetag(name) {
        if (!open || name !== open.tag) return;
        found[open.tag].add(`'sha256-${createHash("sha256").update(open.text).digest("base64")}'`);
        open = undefined;
      },
    },
    { decodeEntities: true },
  );
  parser.end(rendered);
  return {
    html: rendered.replaceAll(` nonce="${marker}"`, ""),
    hashes: { scripts: [...found.script], styles: [...found.style] },
  };
}

/** Where the build records the inline hashes of every prerendered page (build/inline-hashes.json). */
export const INLINE_HASHES_FILE = "inline-hashes.json";

/** The recorded hashes of a prerendered page file; a page the build did not record has none. */
export function readInlineHashes(clientDir: string): (file: string) => InlineHashes {
  const manifest = join(clientDir, "..", INLINE_HASHES_FILE);
  const hashes: Record<string, InlineHashes> = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")) : {};
  return (file) => hashes[relative(clientDir, file).split(sep).join("/")] ?? NO_INLINE;
}

export function contentSecurityPolicy({ scripts, styles }: InlineHashes): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scripts.join(" ")}`.trim(),
    `style-src 'self' ${styles.join(" ")}`.trim(),
    "img-src 'self' data:",
    "font-src 'self'",
    // The players' hosts too: the podcast and video lists ask whether they can be reached before
    // showing players (app/components/EmbedList.tsx).
    `connect-src 'self' ${Object.values(EMBED_ORIGINS).join(" ")}`,
    `frame-src ${Object.values(EMBED_ORIGINS).join(" ")}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
