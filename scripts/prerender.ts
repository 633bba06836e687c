/**
 * Prerenders the site: every page, its data and every resource route into build/client, and the
 * not-found page beside it, on one worker thread per core (scripts/prerender-worker.ts), each
 * with its own copy of the server build. React Router's own prerendering renders on the build's
 * one thread and asks a resource route (a card, a feed) for its file twice.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import type { InlineHashes } from "../host/security.ts";
import type { PrerenderJob, PrerenderReply, PrerenderSettings } from "./prerender-worker.ts";

/** The paths of the routes without parameters, as React Router's `getStaticPaths` gives them. */
export function staticPaths(routes: Record<string, { path?: string; parentId?: string }>): string[] {
  const fullPath = (id: string | undefined): string => {
    const route = id === undefined ? undefined : routes[id];
    if (!route) return "";
    return [fullPath(route.parentId), route.path ?? ""].filter(Boolean).join("/");
  };
  const paths = Object.keys(routes)
    .map(fullPath)
    .filter((path) => !path.split("/").some((segment) => segment.startsWith(":") || segment === "*"));
  return [...new Set(paths.map((path) => `/${path}`))];
}

/**
 * Each worker holds the server build and the whole catalogue (the 10,000-note build with two of
 * them peaked at 1.33 GB in its one process), and two workers on two cores rendered only 1.24 to
 * 1.5 times what one did: more workers than this would cost memory for little time.
 */
const MAX_WORKERS = 4;

export type Prerendered = {
  /** Every file written, their compressed copies aside. */
  written: Set<string>;
  /** The files left as they were: an earlier build of the same code wrote what this one would. */
  kept: Set<string>;
  /** The inline script and style hashes of each page written, by file. */
  pages: Map<string, InlineHashes>;
};

/** Writes `paths` and the not-found page, rendered by the server build in `serverDir`; the first failure fails the build. */
export async function prerender(serverDir: string, clientDir: string, paths: string[]): Promise<Prerendered> {
  const prerendered: Prerendered = { written: new Set(), kept: new Set(), pages: new Map() };
  const jobs: PrerenderJob[] = [{ notFound: true }, ...paths.map((path) => ({ path }))];
  const settings: PrerenderSettings = { clientDir: resolve(clientDir) };
  const workers = Array.from(
    { length: Math.min(availableParallelism(), MAX_WORKERS, jobs.length) },
    () => new Worker(resolve(serverDir, "prerender-worker.js"), { workerData: settings }),
  );
  let next = 0;
  const work = (worker: Worker) =>
    new Promise<void>((done, fail) => {
      const giveNext = () => {
        const job = jobs[next++];
        if (job) worker.postMessage(job);
        else done();
      };
      worker.on("message", (reply: PrerenderReply) => {
        if ("error" in reply) return fail(new Error(reply.error));
        for (const file of reply.written) prerendered.written.add(file);
        for (const file of reply.kept) prerendered.kept.add(file);
        for (const [file, hashes] of reply.pages) prerendered.pages.set(file, hashes);
        giveNext();
      });
      worker.on("error", fail);
      worker.on("exit", (code) => fail(new Error(`A prerendering worker stopped (exit code ${code})`)));
      giveNext();
    });
  try {
    await Promise.all(workers.map(work));
    return prerendered;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
