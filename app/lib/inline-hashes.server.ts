import { createHash } from "node:crypto";
import { Parser } from "htmlparser2";
import { inlineMarker } from "./inline-marker.ts";

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
