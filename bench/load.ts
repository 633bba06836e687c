/** HTTP load with autocannon, run in this process against a server started elsewhere. */
import autocannon from "autocannon";
import { withTimeout } from "./processes.ts";
import { round1 } from "./stats.ts";

export type LoadFigures = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Mean bytes per response (headers included), to see what was served. */
  bytesPerResponse: number;
};

type LoadOptions = {
  url: string;
  connections: number;
  seconds: number;
  requests: autocannon.Request[];
  headers?: Record<string, string>;
};

async function run(options: LoadOptions): Promise<autocannon.Result> {
  let instance: autocannon.Instance | undefined;
  const work = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        headers: options.headers,
        requests: options.requests,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  try {
    return await withTimeout(work, (options.seconds + 30) * 1000, `autocannon on ${options.url}`);
  } catch (error) {
    instance?.stop();
    throw error;
  }
}

/** A short unrecorded run first (JIT, caches), then the measured one. */
export async function measureLoad(options: LoadOptions & { warmupSeconds?: number }): Promise<LoadFigures> {
  if (options.warmupSeconds) await run({ ...options, seconds: options.warmupSeconds });
  const result = await run(options);
  const ok = result["2xx"];
  if (ok === 0) throw new Error(`no 2xx answer (${result.non2xx} others, ${result.errors} connection errors)`);
  const total = ok + result.non2xx;
  return {
    requestsPerSecond: Math.round(ok / result.duration),
    p50Ms: round1(result.latency.p50),
    p99Ms: round1(result.latency.p99),
    requests: total,
    non2xx: result.non2xx,
    errors: result.errors,
    bytesPerResponse: total ? Math.round((result.throughput.total ?? 0) / total) : 0,
  };
}

/** GETs of `paths` in turn on every connection. */
export function pageRequests(paths: readonly string[]): autocannon.Request[] {
  return paths.map((path) => ({ method: "GET", path }));
}

/** POST /api/user with a new email each time. */
export function signupRequests(siteUrl: string): autocannon.Request[] {
  const run = Date.now().toString(36);
  let count = 0;
  return [
    {
      method: "POST",
      path: "/api/user",
      headers: { "Content-Type": "application/json", Origin: siteUrl },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ email: `bench-${run}-${++count}@example.com` }),
      }),
    },
  ];
}
