/**
 * A worker thread that renders filtered lists (server/http/render-pool.ts), so that the thread
 * answering the API and the form posts never runs a list's render. Built to
 * build/server/render-worker.js beside the host: plain JavaScript, no TypeScript loader. A list
 * needs the catalogue only, never the backend or the visitor.
 */
import { parentPort, workerData } from "node:worker_threads";
import * as build from "virtual:react-router/server-build";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { adoptInlineMarker } from "../app/lib/inline-marker.ts";
import { prepareSiteSearch } from "../app/search.server.ts";
import type { RenderJob, RenderResult, RenderWorkerData } from "./render-pool.ts";

adoptInlineMarker((workerData as RenderWorkerData).inlineMarker);
const handle = createRequestHandler(build, "production");
// The site search's results are rendered here too.
prepareSiteSearch();

parentPort?.on("message", async ({ id, url }: RenderJob) => {
  let result: RenderResult;
  try {
    const response = await handle(new Request(url, { headers: { Accept: "text/html" } }), new RouterContextProvider());
    result = {
      id,
      status: response.status,
      contentType: response.headers.get("Content-Type") ?? "",
      body: await response.text(),
    };
  } catch (error) {
    result = { id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort?.postMessage(result);
});
