import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createRequestHandler, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INLINE_HASHES_FILE, type InlineHashes, ownInlineHashes } from "../../app/lib/inline-hashes.server.ts";
import { makeTempDir } from "./helpers.ts";
import { type ProductionServer, servedBuild, startProductionServer } from "./production.ts";

const client = join(servedBuild, "client");
let server: ProductionServer;
let render: (path: string) => Promise<Response>;
/** A page as the build serves it: rendered afresh, the mark of its own inline scripts removed. */
let served: (path: string) => Promise<{ html: string; hashes: InlineHashes }>;
let files: string[];

beforeAll(async () => {
  server = await startProductionServer({ DATA_DIR: makeTempDir().path });
  const build = (await import(pathToFileURL(join(servedBuild, "server/index.js")).href)) as ServerBuild;
  const handle = createRequestHandler(build, "production");
  render = (path) => handle(new Request(`http://localhost${path}`));
  served = async (path) => ownInlineHashes(await (await render(path)).text());
  files = (readdirSync(client, { recursive: true }) as string[]).map((file) => file.split("\\").join("/"));
});

afterAll(async () => {
  await server?.stop();
});

const pages = () => files.filter((file) => file.endsWith("index.html"));
const pagePath = (file: string) => `/${file.replace(/index\.html$/, "")}`;
const dataFile = (file: string) => (file === "index.html" ? "_.data" : file.replace(/\/index\.html$/, ".data"));

describe("prerendered pages", () => {
  test("every page of the sitemap is prerendered with its data", () => {
    const sitemap = readFileSync(join(client, "sitemap.xml"), "utf8");
    const listed = [...sitemap.matchAll(/<loc>https?:\/\/[^/<]+([^<]*)<\/loc>/g)].map((match) => match[1] || "/");
    expect(listed.length).toBeGreaterThan(20);
    for (const path of listed) {
      const page = `${path.replace(/^\//, "").replace(/\/?$/, "/")}index.html`.replace(/^\//, "");
      expect(files, path).toContain(page);
      expect(files, path).toContain(dataFile(page));
    }
  });

  test("a page and its data are what the server renders afresh, loaders and all", async () => {
    for (const file of pages()) {
      const fresh = await render(pagePath(file));
      expect(fresh.status, file).toBe(200);
      expect(readFileSync(join(client, file), "utf8"), file).toBe(ownInlineHashes(await fresh.text()).html);
      const data = dataFile(file);
      const freshData = await render(`/${data}`);
      expect(readFileSync(join(client, data), "utf8"), data).toBe(await freshData.text());
    }
  });

  test("each page and data file has brotli and gzip copies of the same bytes", () => {
    for (const file of pages().flatMap((page) => [page, dataFile(page)])) {
      const original = readFileSync(join(client, file));
      if (original.length < 1024) continue;
      expect(brotliDecompressSync(readFileSync(join(client, `${file}.br`))).equals(original), file).toBe(true);
      expect(gunzipSync(readFileSync(join(client, `${file}.gz`))).equals(original), file).toBe(true);
    }
  });

  test("each page's own inline script and style hashes are recorded for its Content-Security-Policy", async () => {
    const recorded = JSON.parse(readFileSync(join(servedBuild, INLINE_HASHES_FILE), "utf8"));
    expect(Object.keys(recorded).sort()).toEqual(pages().sort());
    for (const page of pages()) expect(recorded[page], page).toEqual((await served(pagePath(page))).hashes);
  });
});

describe("prerendered files of resource routes", () => {
  test("cards, covers, feeds, the sitemap, robots.txt, the site's icon and the search index are written as their files, with no data copy", async () => {
    const resources = files.filter((file) =>
      /^(cards\/.+\.png|covers\/.+\.(svg|png)|feeds\/.+\.atom|sitemap\.xml|robots\.txt|favicon\.svg|apple-touch-icon\.png|search-index\.json)$/.test(
        file,
      ),
    );
    expect(resources.filter((file) => file.startsWith("cards/")).length).toBeGreaterThan(5);
    expect(resources.filter((file) => file.startsWith("covers/")).length).toBeGreaterThan(1);
    expect(resources).toEqual(
      expect.arrayContaining(["feeds/notes.atom", "sitemap.xml", "robots.txt", "favicon.svg", "search-index.json"]),
    );
    for (const file of resources) expect(files, file).not.toContain(`${file}.data`);
    const feed = await render("/feeds/notes.atom");
    expect(readFileSync(join(client, "feeds/notes.atom"), "utf8")).toBe(await feed.text());
  });
});
