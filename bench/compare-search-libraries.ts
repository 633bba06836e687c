/**
 * The comparison behind docs/decisions/search.md: MiniSearch, Orama and FlexSearch on the sample's
 * documents (the same ones the site indexes, catalogue/site-search.ts), each storing what a result
 * shows: index size raw and gzip, build and load time, query time, bundle size (minified, gzip)
 * and whether the queries the site must answer find the right page first.
 *
 *   npx tsx bench/compare-search-libraries.ts
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "rolldown";
import { loadCatalogue } from "../catalogue/disk.ts";
import { type SearchDocument, searchDocuments } from "../catalogue/site-search.ts";

const ROOT = resolve(import.meta.dirname, "..");
const documents = searchDocuments(loadCatalogue(ROOT));

/** Query → the title that should come first. */
const CHECKS: [string, string][] = [
  ["habi", "Atomic Habits"],
  ["thiking fast", "Thinking, Fast and Slow"],
  ["chodron", "When Things Fall Apart"],
  ["tiny improvements compound", "Atomic Habits"],
  ["atomik habbits", "Atomic Habits"],
];
const QUERIES = ["habits", "deep work", "thiking", "money", "writing essays", "focus attention", "stoic", "leadership"];

type Engine = {
  name: string;
  /** The module the browser would load: it loads a serialised index and searches it. */
  entry: string;
  build(documents: SearchDocument[]): Promise<{ serialised: string; search: (query: string) => Promise<string[]> }>;
};

const fields = ["title", "byline", "keywords", "text"] as const;

const ENGINES: Engine[] = [
  {
    name: "MiniSearch 7.2.0",
    entry: `import MiniSearch from "minisearch"; export const run = (json, q) => MiniSearch.loadJSON(json, { fields: ["title"] }).search(q, { prefix: true, fuzzy: 0.2 });`,
    async build(docs) {
      const { default: MiniSearch } = await import("minisearch");
      const index = new MiniSearch<SearchDocument>({
        fields: [...fields],
        storeFields: ["kind", "title", "date", "path", "text"],
      });
      index.addAll(docs);
      return {
        serialised: JSON.stringify(index),
        search: async (query) =>
          index
            .search(query, {
              prefix: true,
              fuzzy: 0.2,
              boost: { title: 5, byline: 3, keywords: 2 },
              combineWith: "AND",
            })
            .map((hit) => hit.title as string),
      };
    },
  },
  {
    name: "Orama 3.1.18",
    entry: `import { create, load, search } from "@orama/orama"; export const run = (raw, q) => { const db = create({ schema: { title: "string" } }); load(db, raw); return search(db, { term: q, tolerance: 1 }); };`,
    async build(docs) {
      const { create, insertMultiple, search, save } = await import("@orama/orama");
      const db = create({
        schema: {
          title: "string",
          byline: "string",
          keywords: "string",
          text: "string",
          kind: "string",
          date: "string",
          path: "string",
        } as const,
      });
      await insertMultiple(
        db,
        docs.map(({ id, ...doc }) => ({ ...doc, id: String(id) })),
      );
      return {
        serialised: JSON.stringify(save(db)),
        search: async (query) => {
          const found = await search(db, {
            term: query,
            tolerance: 1,
            properties: [...fields],
            boost: { title: 5, byline: 3, keywords: 2 },
          });
          return found.hits.map((hit) => hit.document.title as string);
        },
      };
    },
  },
  {
    name: "FlexSearch 0.8.212",
    entry: `import { Document } from "flexsearch"; export const run = (parts, q) => { const index = new Document({ document: { id: "id", index: ["title"] } }); for (const [k, v] of parts) index.import(k, v); return index.search(q, { suggest: true }); };`,
    async build(docs) {
      const { Document, Charset } = await import("flexsearch");
      const index = new Document({
        tokenize: "forward",
        encoder: Charset.LatinBalance,
        document: { id: "id", index: [...fields], store: ["kind", "title", "date", "path", "text"] },
      });
      for (const doc of docs) index.add(doc);
      const parts: [string, string][] = [];
      await index.export((key: string, data: string) => {
        parts.push([key, data]);
      });
      const titles = new Map(docs.map((doc) => [doc.id, doc.title]));
      return {
        serialised: JSON.stringify(parts),
        search: async (query) => {
          const found = await index.search(query, { suggest: true, limit: 20 });
          // FlexSearch answers per field; the title field first stands in for a boost.
          const ids = new Set(found.flatMap((field) => field.result));
          return [...ids].map((id) => titles.get(Number(id)) ?? "");
        },
      };
    },
  },
];

async function bundleGzip(entry: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "search-bundle-"));
  const input = join(dir, "entry.js");
  writeFileSync(input, entry);
  const output = await build({
    input,
    cwd: ROOT,
    write: false,
    platform: "browser",
    resolve: { modules: [join(ROOT, "node_modules")] },
    output: { format: "esm", minify: true },
  });
  const code = output.output.map((chunk) => ("code" in chunk ? chunk.code : "")).join("");
  return gzipSync(code, { level: 9 }).length;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

for (const engine of ENGINES) {
  const started = performance.now();
  const { serialised, search } = await engine.build(documents);
  const buildMs = performance.now() - started;
  const times: number[] = [];
  for (let round = 0; round < 25; round++) {
    for (const query of QUERIES) {
      const t = performance.now();
      await search(query);
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  const checks = await Promise.all(
    CHECKS.map(async ([query, title]) => {
      const found = await search(query);
      const rank = found.indexOf(title);
      return `${query} → ${rank === -1 ? "not found" : `#${rank + 1}`}`;
    }),
  );
  console.log(`\n${engine.name} (${documents.length} documents)`);
  console.log(`  index ${kB(serialised.length)} raw, ${kB(gzipSync(serialised, { level: 9 }).length)} gzip`);
  console.log(`  bundle ${kB(await bundleGzip(engine.entry))} gzip, build ${buildMs.toFixed(0)} ms`);
  console.log(
    `  query p50 ${times[Math.floor(times.length / 2)]?.toFixed(2)} ms, p99 ${times[Math.floor(times.length * 0.99)]?.toFixed(2)} ms`,
  );
  for (const check of checks) console.log(`  ${check}`);
}
