import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { withoutModulePreloads } from "../../app/lib/module-preloads.server.ts";

async function through(chunks: (string | Buffer)[]): Promise<string> {
  const out: Buffer[] = [];
  const buffers = chunks.map((chunk) => (typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk));
  for await (const chunk of Readable.from(buffers).pipe(withoutModulePreloads())) out.push(chunk as Buffer);
  return Buffer.concat(out).toString("utf8");
}

const HEAD =
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/a.js"/>' +
  '<link rel="stylesheet" href="/assets/site.css"/><link rel="modulepreload" href="/assets/b.js"/><title>Café</title></head>';
const BODY =
  '<body><p>Crème brûlée</p><script type="module" async="">import "/assets/a.js";</script>' +
  '<p>&lt;link rel="modulepreload"&gt; stays in the body</p></body></html>';
const EXPECTED =
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="stylesheet" href="/assets/site.css"/>' +
  `<title>Café</title></head>${BODY}`;

describe("withoutModulePreloads", () => {
  it("drops the head's module preloads and keeps everything else byte for byte", async () => {
    expect(await through([HEAD + BODY])).toBe(EXPECTED);
  });

  it("finds them across chunk boundaries, even one that splits a character", async () => {
    const bytes = Buffer.from(HEAD + BODY, "utf8");
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 7) chunks.push(bytes.subarray(at, at + 7));
    expect(await through(chunks)).toBe(EXPECTED);
  });

  it("passes a document without a head through unchanged", async () => {
    expect(await through(["<p>fragment ", '<link rel="modulepreload" href="/x.js"/>'])).toBe(
      '<p>fragment <link rel="modulepreload" href="/x.js"/>',
    );
  });
});
