/** The inline script and style hashes of a page's Content-Security-Policy, read with an HTML tokenizer (server/http/security.ts). */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import {
  contentSecurityPolicy,
  INLINE_HASHES_FILE,
  inlineHashes,
  readInlineHashes,
} from "../../server/http/security.ts";

const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

test("HEADERS every inline script is hashed from its exact text; external scripts and look-alikes are not", () => {
  const html = [
    "<!doctype html><html><head>",
    `<script>window.a = "</p>" && 1 < 2;</script>`,
    `<script type="module" src="/assets/x.js"></script>`,
    `<SCRIPT nonce="">if (a &amp;&amp; b) run();</SCRIPT>`,
    "<!-- <script>commented()</script> -->",
    `</head><body><p title="<script>attr()</script>">text &lt;script&gt;no()&lt;/script&gt;</p>`,
    "<script>\n  multi\n  line\n</script><script></script>",
    "</body></html>",
  ].join("");
  expect(inlineHashes(html).scripts.sort()).toEqual(
    [
      hashOf(`window.a = "</p>" && 1 < 2;`),
      // A script's text is raw: an entity in it is what the browser runs, not decoded.
      hashOf("if (a &amp;&amp; b) run();"),
      hashOf("\n  multi\n  line\n"),
      hashOf(""),
    ].sort(),
  );
  expect(inlineHashes(html).styles).toEqual([]);
});

test("HEADERS an inline stylesheet is hashed into style-src; a linked one needs no hash", () => {
  const css = "body { color: #222; } a[href^='/'] > b { content: \"<\" }";
  const html = `<html><head><style>${css}</style><link rel="stylesheet" href="/assets/site.css"></head><body style="x"></body></html>`;
  const hashes = inlineHashes(html);
  expect(hashes).toEqual({ scripts: [], styles: [hashOf(css)] });
  const policy = contentSecurityPolicy(hashes);
  expect(policy).toContain(`style-src 'self' ${hashOf(css)};`);
  expect(policy).toContain("script-src 'self';");
});

test("HEADERS the build records each prerendered page's hashes and the server reads them back by file", () => {
  const build = mkdtempSync(join(tmpdir(), "hashes-"));
  const client = join(build, "client");
  mkdirSync(join(client, "notes", "x"), { recursive: true });
  writeFileSync(join(client, "index.html"), "<script>home()</script>");
  writeFileSync(join(client, "notes", "x", "index.html"), "<script>note()</script>");
  const recorded = {
    "index.html": inlineHashes("<script>home()</script>"),
    "notes/x/index.html": inlineHashes("<script>note()</script>"),
  };
  writeFileSync(join(build, INLINE_HASHES_FILE), JSON.stringify(recorded));
  const hashesOf = readInlineHashes(client);
  expect(hashesOf(join(client, "index.html"))).toEqual({ scripts: [hashOf("home()")], styles: [] });
  expect(hashesOf(join(client, "notes", "x", "index.html"))).toEqual({ scripts: [hashOf("note()")], styles: [] });
  expect(hashesOf(join(client, "other.html"))).toEqual({ scripts: [], styles: [] });
});
