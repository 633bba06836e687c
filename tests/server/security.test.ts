/**
 * The inline script and style hashes of a page's Content-Security-Policy (host/security.ts):
 * only what the render marked as the app's own, read with an HTML tokenizer, the mark then removed.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { INLINE_HASHES_FILE, ownInlineHashes } from "../../app/lib/inline-hashes.server.ts";
import { inlineMarker } from "../../app/lib/inline-marker.ts";
import { contentSecurityPolicy, readInlineHashes } from "../../host/security.ts";

const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
const MARK = ` nonce="${inlineMarker()}"`;

describe("the hashes of a page's own inline scripts", () => {
  test("a marked inline script is hashed from its exact text; external scripts and look-alikes are not", () => {
    const html = [
      "<!doctype html><html><head>",
      `<script${MARK}>window.a = "</p>" && 1 < 2;</script>`,
      `<script${MARK} type="module" src="/assets/x.js"></script>`,
      `<SCRIPT${MARK}>if (a &amp;&amp; b) run();</SCRIPT>`,
      "<!-- <script>commented()</script> -->",
      `</head><body><p title="<script${MARK}>attr()</script>">text &lt;script&gt;no()&lt;/script&gt;</p>`,
      `<script${MARK}>\n  multi\n  line\n</script><script${MARK}></script>`,
      "</body></html>",
    ].join("");
    expect(ownInlineHashes(html).hashes.scripts.sort()).toEqual(
      [
        hashOf(`window.a = "</p>" && 1 < 2;`),
        // A script's text is raw: an entity in it is what the browser runs, not decoded.
        hashOf("if (a &amp;&amp; b) run();"),
        hashOf("\n  multi\n  line\n"),
        hashOf(""),
      ].sort(),
    );
    expect(ownInlineHashes(html).hashes.styles).toEqual([]);
  });

  test("an inline script without the mark, with another one or with a guessed one is never hashed", () => {
    const html = [
      `<script${MARK}>own()</script>`,
      "<script>alert(document.domain)</script>",
      '<script nonce="">empty()</script>',
      '<script nonce="creator-site">guessed()</script>',
      `<script nonce="${inlineMarker()}x">longer()</script>`,
      `<script type="application/ld+json">{"@type":"Book"}</script>`,
    ].join("");
    expect(ownInlineHashes(html).hashes.scripts).toEqual([hashOf("own()")]);
    expect(ownInlineHashes(html, "another-thread's-marker").hashes.scripts).toEqual([]);
  });

  test("the mark is removed from the page the browser gets; nothing else changes", () => {
    const html = `<head><script${MARK}>own()</script><style${MARK}>p{}</style></head><body><script>x()</script></body>`;
    expect(ownInlineHashes(html).html).toBe(
      "<head><script>own()</script><style>p{}</style></head><body><script>x()</script></body>",
    );
  });

  test("a marked inline stylesheet is hashed into style-src, an unmarked one is not; a linked one needs no hash", () => {
    const css = "body { color: #222; } a[href^='/'] > b { content: \"<\" }";
    const html = `<html><head><style${MARK}>${css}</style><style>body{display:none}</style><link rel="stylesheet" href="/assets/site.css"></head><body style="x"></body></html>`;
    const { hashes } = ownInlineHashes(html);
    expect(hashes).toEqual({ scripts: [], styles: [hashOf(css)] });
    const policy = contentSecurityPolicy(hashes);
    expect(policy).toContain(`style-src 'self' ${hashOf(css)};`);
    expect(policy).toContain("script-src 'self';");
  });
});

test("forms post to the site only, and the follow form's redirect may reach any https server, loopback ones only on a trial", () => {
  const none = { scripts: [], styles: [] };
  expect(contentSecurityPolicy(none)).toContain("form-action 'self' https:;");
  expect(contentSecurityPolicy(none, { loopbackFollow: true })).toContain(
    "form-action 'self' https: http://127.0.0.1:* http://localhost:*;",
  );
});

test("the build records each prerendered page's hashes and the server reads them back by file", () => {
  const build = mkdtempSync(join(tmpdir(), "hashes-"));
  const client = join(build, "client");
  mkdirSync(join(client, "notes", "x"), { recursive: true });
  writeFileSync(join(client, "index.html"), "<script>home()</script>");
  writeFileSync(join(client, "notes", "x", "index.html"), "<script>note()</script>");
  const recorded = {
    "index.html": ownInlineHashes(`<script${MARK}>home()</script>`).hashes,
    "notes/x/index.html": ownInlineHashes(`<script${MARK}>note()</script>`).hashes,
    "../not-found.html": ownInlineHashes(`<script${MARK}>missing()</script>`).hashes,
  };
  writeFileSync(join(build, INLINE_HASHES_FILE), JSON.stringify(recorded));
  const hashesOf = readInlineHashes(client);
  expect(hashesOf(join(client, "index.html"))).toEqual({ scripts: [hashOf("home()")], styles: [] });
  expect(hashesOf(join(client, "notes", "x", "index.html"))).toEqual({ scripts: [hashOf("note()")], styles: [] });
  expect(hashesOf(join(build, "not-found.html"))).toEqual({ scripts: [hashOf("missing()")], styles: [] });
  expect(hashesOf(join(client, "other.html"))).toEqual({ scripts: [], styles: [] });
});
