/**
 * Render amplification: the API's latency alone, then while 20 connections ask
 * for a filtered list — the same query (`/notes?q=x`, answered from the render cache) and a new
 * query each time (every one a render, capped by RENDER_CONCURRENCY: the rest get a fast 503).
 */
import type autocannon from "autocannon";
import { type LoadFigures, measureLoad, signupRequests } from "./load.ts";

export const AMPLIFICATION = { apiConnections: 2, listConnections: 20, seconds: 8 };

export type ListLoad = { query: string; list: LoadFigures; api: LoadFigures };

export type AmplificationFigures = typeof AMPLIFICATION & {
  apiAlone: LoadFigures;
  withLists: ListLoad[];
};

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

export async function measureAmplification(url: string, log: (message: string) => void): Promise<AmplificationFigures> {
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
  return { ...AMPLIFICATION, apiAlone, withLists: [same, distinct] };
}
