import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { INLINE_HASHES_FILE, type InlineHashes, NO_INLINE } from "../app/lib/inline-hashes.server.ts";
import { EMBED_ORIGINS } from "../catalogue/embeds.ts";

/** The hashes the build recorded for each page file; read once per build. */
export function readInlineHashes(clientDir: string): (file: string) => InlineHashes {
  const manifest = join(clientDir, "..", INLINE_HASHES_FILE);
  const hashes: Record<string, InlineHashes> = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")) : {};
  return (file) => hashes[relative(clientDir, file).split(sep).join("/")] ?? NO_INLINE;
}

/**
 * The follow form sends a reader on to their own server, and browsers hold the redirect after a form
 * to `form-action` too: so any https server, and loopback ones over http for local trials.
 */
const followTargets = (loopback: boolean) => `https:${loopback ? " http://127.0.0.1:* http://localhost:*" : ""}`;

export function contentSecurityPolicy({ scripts, styles }: InlineHashes, { loopbackFollow = false } = {}): string {
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
    `form-action 'self' ${followTargets(loopbackFollow)}`,
    "frame-ancestors 'none'",
  ].join("; ");
}
