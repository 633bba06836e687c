/**
 * A worker thread of the build's prerendering (scripts/prerender.ts). It loads the server build
 * once and writes the files of each path it is given into build/client, as React Router's own
 * prerendering writes them:
 * - a page: its data (`<path>.data`, `/_.data` for `/`), then its HTML (`<path>/index.html`)
 *   rendered from that data, so its loaders run once;
 * - a resource route (a route module without a component: a card, a feed): its file, at its path;
 * - the not-found page and its data, beside build/client (the server answers every unknown path
 *   with them).
 * Each file gets its compressed copies at once, from memory, and each page's inline script and
 * style hashes go back to the build with the list of files written. A file that already holds what
 * would be written is kept as it is, and so is a page whose data is unchanged, without rendering
 * it: build/client holds only this code's output (a build with new code starts from its bundles
 * alone), and a page's HTML depends on nothing but the code and its data. Built to
 * build/server/prerender-worker.js beside React Router's server build: plain JavaScript.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import * as build from "virtual:react-router/server-build";
import { createRequestHandler, matchRoutes, type RouteObject } from "react-router";
import { timeSpentNow } from "../catalogue/build-timing.ts";
import { type InlineHashes, ownInlineHashes } from "../host/security.ts";
import { holds, writeNew } from "./build-files.ts";
import { writeCompressedCopiesNow } from "./compressed-copies.ts";

const NOT_FOUND_PAGE_FILE = "not-found.html";
const NOT_FOUND_DATA_FILE = "not-found.data";

export type PrerenderJob = { path: string } | { notFound: true };
export type PrerenderReply =
  /** The files written (their compressed copies aside) and kept, and the hashes of each page rendered. */
  { written: string[]; kept: string[]; pages: [file: string, hashes: InlineHashes][] } | { error: string };
export type PrerenderSettings = { clientDir: string };

// React Router then reads a page's data from the header below instead of running its loaders again.
process.env.IS_RR_BUILD_REQUEST = "yes";
const PRERENDERED_DATA_HEADER = "X-React-Router-Prerender-Data";
/** Requests go to this origin, as React Router's own prerendering sends them: pages take the site's address from SITE_URL. */
const ORIGIN = "http://localhost";
/** A path no route but the not-found one matches: its page is the same whatever the path. */
const UNKNOWN_PATH = "/not-found";

const { clientDir } = workerData as PrerenderSettings;
const handle = createRequestHandler(build, "production");

type BuildRoute = (typeof build.routes)[string];
const routes = Object.values(build.routes).filter((route) => route !== undefined);
const nested = (parentId: string | undefined): RouteObject[] =>
  routes
    .filter((route) => route.parentId === parentId)
    .map(({ id, path, index }) => (index ? { id, path, index } : { id, path, children: nested(id) }));
const routeTree = nested(undefined);

/** The route module that answers a path: the most specific route whose pattern matches it. */
const routeOf = (path: string): BuildRoute | undefined =>
  build.routes[matchRoutes(routeTree, path)?.at(-1)?.route.id ?? ""];

/** A route module without a component answers with a file of its own. */
const isResourceRoute = (route: BuildRoute) => !route?.module.default && !route?.module.ErrorBoundary;

async function render(path: string, status: number, headers: Record<string, string> = {}): Promise<Buffer> {
  const response = await handle(new Request(`${ORIGIN}${path}`, { headers }));
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== status) {
    throw new Error(`Prerendering ${path} answered ${response.status}: ${body.toString("utf8").slice(0, 500)}`);
  }
  return body;
}

/** The folders made so far: most pages share theirs with many others. */
const madeFolders = new Set<string>();
/** What the job in hand has written. */
let reply: Extract<PrerenderReply, { written: string[] }> = { written: [], kept: [], pages: [] };

function write(file: string, body: Buffer): void {
  if (holds(file, body)) {
    reply.kept.push(file);
    return;
  }
  const folder = dirname(file);
  if (!madeFolders.has(folder)) {
    mkdirSync(folder, { recursive: true });
    madeFolders.add(folder);
  }
  writeNew(file, body);
  timeSpentNow("page compression", () => writeCompressedCopiesNow(file, body));
  reply.written.push(file);
}

/** A rendered page as served, its own inline scripts' hashes going back to the build (written or kept alike). */
function servedPage(file: string, rendered: Buffer): Buffer {
  const { html, hashes } = ownInlineHashes(rendered.toString("utf8"));
  reply.pages.push([file, hashes]);
  return Buffer.from(html);
}

const inClient = (urlPath: string) => join(clientDir, ...urlPath.split("/"));

async function prerenderPath(path: string): Promise<void> {
  const route = routeOf(path);
  if (!route) throw new Error(`Prerendering ${path}: no route answers it`);
  if (isResourceRoute(route)) {
    write(inClient(path), await render(path, 200));
    return;
  }
  const dataPath = path.endsWith("/") ? `${path}_.data` : `${path}.data`;
  const data = await render(dataPath, 200);
  const pagePath = `${path}/`.replace(/\/\/+/g, "/");
  const page = inClient(`${pagePath}index.html`);
  if (holds(inClient(dataPath), data) && existsSync(page)) {
    reply.kept.push(inClient(dataPath), page);
    return;
  }
  write(inClient(dataPath), data);
  const html = await render(pagePath, 200, { [PRERENDERED_DATA_HEADER]: encodeURI(data.toString("utf8")) });
  write(page, servedPage(page, html));
}

async function prerenderNotFound(): Promise<void> {
  const buildDir = dirname(clientDir);
  const page = join(buildDir, NOT_FOUND_PAGE_FILE);
  write(page, servedPage(page, await render(UNKNOWN_PATH, 404)));
  write(join(buildDir, NOT_FOUND_DATA_FILE), await render(`${UNKNOWN_PATH}.data`, 404));
}

parentPort?.on("message", async (job: PrerenderJob) => {
  reply = { written: [], kept: [], pages: [] };
  try {
    await ("notFound" in job ? prerenderNotFound() : prerenderPath(job.path));
    parentPort?.postMessage(reply);
  } catch (error) {
    const what = error instanceof Error ? error.message : String(error);
    parentPort?.postMessage({ error: `Prerendering ${"notFound" in job ? UNKNOWN_PATH : job.path}: ${what}` });
  }
});
