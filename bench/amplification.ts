/**
 * Render amplification: the API's latency alone, then while 20 connections ask for a filtered
 * list — the same query (`/notes?q=x`, answered from the render cache) and a new query each time
 * (every one a render, capped by RENDER_CONCURRENCY: the rest get a fast 503).
 * Then the server's memory over 100,000 GETs of odd path spellings (each the not-found page, rendered once).
 */

import autocannon from "autocannon";
import { type LoadFigures, measureLoad, signupRequests } from "./load.ts";
import { rssMb } from "./processes.ts";

export const AMPLIFICATION = { apiConnections: 2, listConnections: 20, seconds: 8 };

export type ListLoad = { query: string; list: LoadFigures; api: LoadFigures };

export const ODD_PATHS = { requests: 100_000, connections: 20 };

export type OddPathFigures = typeof ODD_PATHS & {
  rssBeforeMb: number;
  rssAfterMb: number;
  statuses: Record<string, number>;
};

export type AmplificationFigures = typeof AMPLIFICATION & {
  apiAlone: LoadFigures;
  withLists: ListLoad[];
  /** Absent in results written before it was measured. */
  oddPaths?: OddPathFigures;
};

/** A different odd spelling each time: unknown pages, encoded bytes, dot segments, data URLs. */
function oddPathRequests(): autocannon.Request[] {
  const run = Date.now().toString(36);
  const shapes = [
    (n: number) => `/no-such-${run}-${n}`,
    (n: number) => `/notes/${run}-${n}/..%2f%2e%2e/x`,
    (n: number) => `/%7e${run}/${n};param=1`,
    (n: number) => `/write//${run}-${n}//index.html`,
    (n: number) => `/${run}-${n}.data`,
  ];
  let count = 0;
  return [
    {
      method: "GET",
      setupRequest: (request) => {
        count++;
        return { ...request, path: (shapes[count % shapes.length] as (n: number) => string)(count) };
      },
    },
  ];
}

async function measureOddPaths(url: string, pid: number): Promise<OddPathFigures> {
  const rssBeforeMb = rssMb(pid);
  const result = await new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      { url, connections: ODD_PATHS.connections, amount: ODD_PATHS.requests, requests: oddPathRequests(), timeout: 10 },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    ),
  );
  const statuses: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stats?.count ?? 0;
  return { ...ODD_PATHS, rssBeforeMb, rssAfterMb: rssMb(pid), statuses };
}

/** A new search on every request: nothing for the cache to answer. */
function distinctQueries(): autocannon.Request[] {
  const run = Date.now().toString(36);
  let count = 0;
  return [{ method: "GET", setupRequest: (request) => ({ ...request, path: `/notes?q=${run}-${++count}` }) }];
}

/** The list load's own figures count 2xx only: its 503s are in `non2xx`. */
async function apiUnderListLoad(url: string, query: string, requests: autocannon.Request[]): Promise<ListLoad> {
  const { apiConnections, listConnections, seconds } = AMPLIFICATION;
  // The list load starts first and lasts longer, so the API is measured only while it runs.
  const list = measureLoad({ url, connections: listConnections, seconds: seconds + 2, requests });
  await new Promise((done) => setTimeout(done, 1000));
  const api = await measureLoad({ url, connections: apiConnections, seconds, requests: signupRequests(url) });
  return { query, list: await list, api };
}

export async function measureAmplification(
  url: string,
  pid: number | undefined,
  log: (message: string) => void,
): Promise<AmplificationFigures> {
  const { apiConnections, seconds } = AMPLIFICATION;
  log("amplification: the API alone");
  const apiAlone = await measureLoad({
    url,
    connections: apiConnections,
    seconds,
    requests: signupRequests(url),
    warmupSeconds: 2,
  });
  log("amplification: the API with 20 connections on /notes?q=x");
  const same = await apiUnderListLoad(url, "/notes?q=x", [{ method: "GET", path: "/notes?q=x" }]);
  log("amplification: the API with 20 connections on a new query each");
  const distinct = await apiUnderListLoad(url, "/notes?q=<new each time>", distinctQueries());
  if (pid === undefined) return { ...AMPLIFICATION, apiAlone, withLists: [same, distinct] };
  log(`amplification: ${ODD_PATHS.requests} GETs of odd paths`);
  const oddPaths = await measureOddPaths(url, pid);
  return { ...AMPLIFICATION, apiAlone, withLists: [same, distinct], oddPaths };
}
