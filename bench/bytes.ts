/**
 * Bytes of each page's HTML and of all the JavaScript the page loads at first (until the network
 * is idle after hydration), split into the shared runtime and the page's own code. Raw bytes are
 * the files as served without compression; gzip is measured at level 9, as the build's .gz copies.
 *
 * The shared runtime is what React Router's manifest loads on every page: the entry (entry.client
 * with React, React DOM and React Router, and its imports), the root route and its imports, and
 * the manifest itself. Everything else a page loads is its own code. Requests to other hosts (the
 * podcast and video players) are blocked: they cannot be reached here.
 */
import { gzipSync } from "node:zlib";
import { Parser } from "htmlparser2";
import type { Browser } from "playwright-core";

export type Sizes = { raw: number; gzip: number };

export type PageBytes = {
  path: string;
  /** Whether the page hydrates: it ships module scripts (its route opts in, app/lib/page-handle.ts). */
  hydrates: boolean;
  /** `<script type="module">` and `<link rel="modulepreload">` in the served HTML. */
  moduleScripts: number;
  html: Sizes;
  sharedJs: Sizes;
  ownJs: Sizes;
  totalJs: Sizes;
  /** The page's own chunks, without their content hashes. */
  ownChunks: string[];
};

export type BytesResult = { sharedChunks: string[]; pages: PageBytes[] };

type Manifest = {
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
};

const PAGE_TIMEOUT_MS = 30_000;

function sizes(body: Buffer): Sizes {
  return { raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
}

function add(total: Sizes, more: Sizes): Sizes {
  return { raw: total.raw + more.raw, gzip: total.gzip + more.gzip };
}

/** "/assets/entry.client-DVeEw7-B.js" → "entry.client". */
export function chunkName(url: string): string {
  const file = new URL(url, "http://x").pathname.split("/").pop() ?? url;
  return file.replace(/-[\w-]{8}\.js$/, "").replace(/\.js$/, "");
}

/** `<script type="module">` and `<link rel="modulepreload">` elements in a page's markup. */
function countModuleScripts(html: string): number {
  let count = 0;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (
        (name === "script" && attributes.type === "module") ||
        (name === "link" && attributes.rel === "modulepreload")
      )
        count++;
    },
  });
  parser.end(html);
  return count;
}

export async function measureBytes(browser: Browser, baseUrl: string, paths: readonly string[]): Promise<BytesResult> {
  const pages: PageBytes[] = [];
  let sharedChunks: string[] = [];
  for (const path of paths) {
    const response = await fetch(baseUrl + path, {
      headers: { "Accept-Encoding": "identity" },
      signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    const html = sizes(body);
    const moduleScripts = countModuleScripts(body.toString("utf8"));

    const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
    try {
      // Other hosts (the players' iframes) cannot be reached here: blocked, as for Lighthouse.
      await context.route(
        (url) => !url.href.startsWith(baseUrl),
        (route) => route.abort("blockedbyclient"),
      );
      const page = await context.newPage();
      page.setDefaultTimeout(PAGE_TIMEOUT_MS);
      const scripts = new Map<string, Promise<Buffer>>();
      page.on("response", (reply) => {
        const url = reply.url();
        if (reply.request().resourceType() === "script" && url.startsWith(baseUrl) && !scripts.has(url)) {
          scripts.set(url, reply.body());
        }
      });
      await page.goto(baseUrl + path, { waitUntil: "load" });
      // The shell script runs on every page; React only where the page hydrates, which the page's
      // own module scripts say (counted in the served markup, before React touches the head).
      await page.waitForFunction(() => document.documentElement.dataset.shell === "ready");
      await page.waitForLoadState("networkidle");
      const hydrates = scripts.size > 0;
      if (hydrates) await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
      const manifest = (await page.evaluate(
        () => (window as unknown as { __reactRouterManifest?: unknown }).__reactRouterManifest ?? null,
      )) as Manifest | null;
      const shared = new Set<string>();
      if (manifest) {
        for (const module of [manifest.entry.module, ...manifest.entry.imports]) shared.add(module);
        const root = manifest.routes.root;
        if (root) for (const module of [root.module, ...(root.imports ?? [])]) shared.add(module);
      }
      let sharedJs: Sizes = { raw: 0, gzip: 0 };
      let ownJs: Sizes = { raw: 0, gzip: 0 };
      const ownChunks: string[] = [];
      const sharedHere: string[] = [];
      for (const [url, body] of [...scripts].sort(([a], [b]) => a.localeCompare(b))) {
        const pathname = new URL(url).pathname;
        const measured = sizes(await body);
        if (shared.has(pathname) || /\/manifest-[\w-]+\.js$/.test(pathname)) {
          sharedJs = add(sharedJs, measured);
          sharedHere.push(chunkName(url));
        } else {
          ownJs = add(ownJs, measured);
          ownChunks.push(chunkName(url));
        }
      }
      if (sharedHere.length > sharedChunks.length) sharedChunks = sharedHere;
      pages.push({
        path,
        hydrates,
        moduleScripts,
        html,
        sharedJs,
        ownJs,
        totalJs: add(sharedJs, ownJs),
        ownChunks: ownChunks.sort(),
      });
    } finally {
      await context.close();
    }
  }
  return { sharedChunks: sharedChunks.sort(), pages };
}
