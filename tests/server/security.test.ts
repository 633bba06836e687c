/** The inline-script hashes of a page's Content-Security-Policy, read with an HTML tokenizer (server/security.ts). */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import {
  inlineScriptHashes,
  prerenderedScriptHashes,
  readScriptHashes,
  SCRIPT_HASHES_FILE,
} from "../../server/security.ts";

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
  expect(inlineScriptHashes(html).sort()).toEqual(
    [
      hashOf(`window.a = "</p>" && 1 < 2;`),
      // A script's text is raw: an entity in it is what the browser runs, not decoded.
      hashOf("if (a &amp;&amp; b) run();"),
      hashOf("\n  multi\n  line\n"),
      hashOf(""),
    ].sort(),
  );
});

test("HEADERS the build records each prerendered page's hashes and the server reads them back by file", () => {
  const build = mkdtempSync(join(tmpdir(), "hashes-"));
  const client = join(build, "client");
  mkdirSync(join(client, "notes", "x"), { recursive: true });
  writeFileSync(join(client, "index.html"), "<script>home()</script>");
  writeFileSync(join(client, "notes", "x", "index.html"), "<script>note()</script>");
  const pages = ["index.html", join("notes", "x", "index.html")];
  writeFileSync(join(build, SCRIPT_HASHES_FILE), JSON.stringify(prerenderedScriptHashes(client, pages)));
  const hashesOf = readScriptHashes(client);
  expect(hashesOf(join(client, "index.html"))).toEqual([hashOf("home()")]);
  expect(hashesOf(join(client, "notes", "x", "index.html"))).toEqual([hashOf("note()")]);
  expect(hashesOf(join(client, "other.html"))).toEqual([]);
});
