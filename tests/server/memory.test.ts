/**
 * The real production server (`npm start`'s command, on the real build) keeps
 * its memory while it is sent thousands of random spellings of its biggest files. Its resident
 * size after the run stays within 50 MB of its size after a warm-up of the same traffic, long
 * enough for the heap to reach its working size for it (streaming files allocates per request).
 * Paths without a file are left out: React Router renders them.
 * `npm start` builds the site first when the build is missing or stale, hence the long timeout.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { entryAt } from "../support/lists.ts";
import { makeTempDir } from "./helpers.ts";
import { type ProductionServer, servedBuild, startProductionServer } from "./production.ts";

const WARM_UP_REQUESTS = 8000;
const REQUESTS = 4000;
const CONCURRENCY = 16;
const BOUND_BYTES = 50 * 1024 * 1024;

let temp: ReturnType<typeof makeTempDir>;
let server: ProductionServer;
let origin = "";

beforeAll(async () => {
  temp = makeTempDir();
  server = await startProductionServer({ DATA_DIR: temp.path });
  origin = server.origin;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  temp?.remove();
});

function residentBytes(pid: number): number {
  const kilobytes = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!kilobytes) throw new Error("no VmRSS in /proc status");
  return Number(kilobytes[1]) * 1024;
}

/** URL paths of the biggest built files: the ones whose copies cost the most memory. */
function biggestFiles(count: number): string[] {
  const clientDir = join(servedBuild, "client");
  const files: { path: string; size: number }[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (!/\.(br|gz)$/.test(name)) files.push({ path, size: stat.size });
    }
  };
  walk(clientDir);
  return files
    .sort((a, b) => b.size - a.size)
    .slice(0, count)
    .map((file) => `/${relative(clientDir, file.path).split(sep).join("/")}`);
}

const randomInt = (below: number) => Math.floor(Math.random() * below);

/** Another spelling of the same path: doubled slashes, `/./`, percent-encoded letters, `/` for index.html. */
function respell(path: string): string {
  let spelled = path.endsWith("/index.html") && Math.random() < 0.3 ? path.slice(0, -"index.html".length) : path;
  spelled = spelled.replace(/\//g, (slash) => (Math.random() < 0.3 ? slash.repeat(2 + randomInt(3)) : slash));
  if (Math.random() < 0.3) spelled = spelled.replace("/", "/./");
  return spelled.replace(/[a-z]/g, (letter) =>
    Math.random() < 0.2 ? `%${letter.charCodeAt(0).toString(16)}` : letter,
  );
}

test("thousands of random spellings of the biggest files leave the server's memory within 50 MB of idle", async () => {
  const pid = server.child.pid;
  if (pid === undefined) throw new Error("the server has no process id");
  const targets = biggestFiles(12);
  const get = async (path: string) => {
    const response = await fetch(origin + path, { headers: { "Accept-Encoding": "br, gzip" } });
    await response.arrayBuffer();
    return response.status;
  };

  for (const target of targets) expect(await get(target)).toBe(200);
  let sent = 0;
  const statuses = new Map<number, number>();
  const send = async (count: number) => {
    const worker = async () => {
      while (sent < count) {
        sent++;
        const status = await get(respell(entryAt(targets, randomInt(targets.length))));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    sent = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };

  await send(WARM_UP_REQUESTS);
  const idle = residentBytes(pid);
  await send(REQUESTS);

  const grown = residentBytes(pid) - idle;
  console.log(`server RSS grew by ${(grown / 1024 / 1024).toFixed(1)} MB over ${REQUESTS} requests`, statuses);
  expect([...statuses.keys()]).toEqual([200]);
  expect(grown).toBeLessThan(BOUND_BYTES);
}, 120_000);
