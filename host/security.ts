import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { Parser } from "htmlparser2";
import { inlineMarker } from "../app/lib/inline-marker.ts";
import { EMBED_ORIGINS } from "../catalogue/embeds.ts";

export type InlineHashes = { scripts: string[]; styles: string[] };

export const NO_INLINE: InlineHashes = { scripts: [], styles: [] };

/** Hashes only what carried the render's marker (content's own inline scripts are refused), as the browser reads it. */
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

export const INLINE_HASHES_FILE = "inline-hashes.json";

/** The hashes the build recorded for each page file; read once per build. */
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
    // The lists of players probe their hosts before showing them (app/components/EmbedList.tsx).
    `connect-src 'self' ${Object.values(EMBED_ORIGINS).join(" ")}`,
    `frame-src ${Object.values(EMBED_ORIGINS).join(" ")}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
