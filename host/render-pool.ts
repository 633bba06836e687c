/**
 * A small pool of worker threads (server/http/render-worker.ts) that render filtered lists off
 * the main thread: a render takes tens of milliseconds of JavaScript, and on the main thread every
 * one of them delayed the API and the form posts behind it (docs/decisions/renders-in-worker-threads.md).
 * The render limiter keeps at most as many renders in flight as there are workers; a job beyond
 * that waits for the next free worker. A worker that dies fails its job and is replaced.
 */
import { Worker } from "node:worker_threads";
import { inlineMarker } from "../app/lib/inline-marker.ts";

export type RenderJob = { id: number; url: string };
export type RenderWorkerData = { inlineMarker: string };
export type RenderResult =
  | { id: number; status: number; contentType: string; body: string }
  | { id: number; error: string };

type Pending = { resolve: (response: Response) => void; reject: (error: Error) => void };

export type RenderPool = {
  /** React Router's answer to a GET of `url`, rendered by a worker. */
  render(url: string): Promise<Response>;
  close(): Promise<void>;
};

export function createRenderPool(workerFile: string, size: number): RenderPool {
  let nextId = 0;
  let closed = false;
  const idle: Worker[] = [];
  const jobs = new Map<Worker, { id: number; pending: Pending }>();
  const waiting: Array<{ url: string; pending: Pending }> = [];
  const workers = new Set<Worker>();

  function dispatch(worker: Worker, url: string, pending: Pending) {
    const id = nextId++;
    jobs.set(worker, { id, pending });
    worker.postMessage({ id, url } satisfies RenderJob);
  }

  function release(worker: Worker) {
    jobs.delete(worker);
    const next = waiting.shift();
    if (next) dispatch(worker, next.url, next.pending);
    else idle.push(worker);
  }

  function spawn() {
    // The process's inline marker: the host hashes the page the worker rendered (app/lib/inline-marker.ts).
    const worker = new Worker(workerFile, { workerData: { inlineMarker: inlineMarker() } satisfies RenderWorkerData });
    worker.unref();
    workers.add(worker);
    worker.on("message", (result: RenderResult) => {
      const job = jobs.get(worker);
      if (!job || job.id !== result.id) return;
      if ("error" in result) job.pending.reject(new Error(`A render worker failed: ${result.error}`));
      else {
        const headers = { "Content-Type": result.contentType };
        job.pending.resolve(new Response(result.body, { status: result.status, headers }));
      }
      release(worker);
    });
    worker.on("error", (error) => jobs.get(worker)?.pending.reject(error));
    worker.on("exit", (code) => {
      jobs.get(worker)?.pending.reject(new Error(`A render worker stopped (exit code ${code})`));
      jobs.delete(worker);
      workers.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      if (!closed) release(spawn());
    });
    return worker;
  }

  for (let count = 0; count < size; count++) idle.push(spawn());

  return {
    render(url) {
      return new Promise((resolve, reject) => {
        const worker = idle.pop();
        if (worker) dispatch(worker, url, { resolve, reject });
        else waiting.push({ url, pending: { resolve, reject } });
      });
    },
    async close() {
      closed = true;
      await Promise.all([...workers].map((worker) => worker.terminate()));
    },
  };
}
