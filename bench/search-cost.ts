/**
 * What the costliest searches cost the server, on the production server of the sample:
 * - the worst queries of at most 200 characters (a hundred one-letter words, many short words, a
 *   word repeated, long words, another script, punctuation) against ordinary ones, ranked in
 *   process and as /search?q=… over HTTP, each request new to the render cache;
 * - another visitor's uncached searches and filtered lists answered, one after another from
 *   127.0.0.2, while two connections from 127.0.0.1 send the worst query shuffled;
 * - the server's memory after 50,000 unique queries.
 */

import { get } from "node:http";
import autocannon from "autocannon";
import { loadCatalogue } from "../catalogue/disk.ts";
import { buildSearchIndex, searchDocuments, searchSite } from "../catalogue/site-search.ts";
import { seededRandom } from "../tests/support/random.ts";
import { rssMb } from "./processes.ts";
import { median, round1 } from "./stats.ts";

const ORDINARY = ["thinking fast", "stoic"];
const LETTERS = "bcdefghjklmnopqrstuvwxyz";
const words = (count: number, word: (at: number) => string) => Array.from({ length: count }, (_, at) => word(at));
const letter = (at: number) => LETTERS[at % LETTERS.length] as string;

/** Queries of at most 200 characters that once cost the most, by what makes them costly. */
export const WORST_QUERIES: Record<string, string> = {
  "100 one-letter words": words(100, letter).join(" "),
  "66 two-letter words": words(66, (at) => letter(at) + letter(at * 7)).join(" "),
  "one word repeated": words(28, () => "habits").join(" "),
  "14 words of 13 letters": words(14, (at) => `understandin${letter(at)}`).join(" "),
  "22 words of 8 letters": words(22, (at) => ["thinking", "creative", "habitual", "progress"][at % 4] as string).join(
    " ",
  ),
  "one word of 200 letters": "x".repeat(200),
  "Cyrillic words": words(33, () => "мысль").join(" "),
  "one-letter words between dots": words(100, letter).join("."),
  punctuation: "!?.,;:".repeat(33),
};

const SAMPLES = 12;
/** The query two connections send while another visitor searches. */
const FAIRNESS_QUERY = "100 one-letter words";
const FAIRNESS_REQUESTS = 40;
const UNIQUE_QUERIES = { requests: 50_000, connections: 8 };

export type QueryCost = { query: string; rankingMs: number; httpMs: number };

export type SearchCostFigures = {
  samples: number;
  ordinary: QueryCost[];
  worst: QueryCost[];
  /** The costliest worst query's HTTP time over the costlier ordinary one's. */
  worstOverOrdinary: number;
  fairness: { attackers: number; query: string; search: number; notes: number; of: number; p50Ms: number };
  uniqueQueries: typeof UNIQUE_QUERIES & {
    rssBeforeMb: number;
    rssAfterMb: number;
    statuses: Record<string, number>;
  };
};

/** The same query spelt differently each time (word order, letter case): ranked alike, cached apart. */
function variants(seed: number) {
  const { int } = seededRandom(seed);
  return (query: string) => {
    const parts = query.includes(" ") ? query.split(" ") : Array.from(query);
    for (let at = parts.length - 1; at > 0; at--) {
      const other = int(at + 1);
      [parts[at], parts[other]] = [parts[other] as string, parts[at] as string];
    }
    const shuffled = parts.join(query.includes(" ") ? " " : "");
    return Array.from(shuffled, (character) => (int(2) ? character.toUpperCase() : character)).join("");
  };
}

/** One GET on a connection of its own from `localAddress`, read to the end: its status and milliseconds. */
function timedGet(url: string, localAddress = "127.0.0.1"): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(url, { agent: false, localAddress, headers: { "Accept-Encoding": "br" } }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      response.on("error", reject);
    }).on("error", reject);
  });
}

const searchUrl = (baseUrl: string, path: string, query: string) =>
  `${baseUrl}${path}?${new URLSearchParams({ q: query })}`;

async function queryCost(index: ReturnType<typeof buildSearchIndex>, baseUrl: string, query: string) {
  const spell = variants(query.length);
  const ranking: number[] = [];
  const http: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    const spelt = spell(query);
    const started = performance.now();
    searchSite(index, spelt);
    ranking.push(performance.now() - started);
    const { status, ms } = await timedGet(searchUrl(baseUrl, "/search", spelt));
    if (status !== 200) throw new Error(`/search?q=${query.slice(0, 20)}… answered ${status}`);
    http.push(ms);
  }
  return { query, rankingMs: Math.round(median(ranking) * 100) / 100, httpMs: round1(median(http)) };
}

/** Another visitor's new searches and filtered lists, one at a time, while `attackers` connections send `worst`. */
async function fairness(baseUrl: string, worst: string, log: (message: string) => void) {
  const attackers = 2;
  let running = true;
  const spell = variants(7);
  const flood = Array.from({ length: attackers }, async () => {
    while (running) await timedGet(searchUrl(baseUrl, "/search", spell(WORST_QUERIES[worst] as string)));
  });
  await new Promise((done) => setTimeout(done, 500));
  const answered = { search: 0, notes: 0 };
  const times: number[] = [];
  const visitor = variants(11);
  for (let at = 0; at < FAIRNESS_REQUESTS; at++) {
    for (const path of ["/search", "/notes"] as const) {
      const { status, ms } = await timedGet(searchUrl(baseUrl, path, visitor(ORDINARY[0] as string)), "127.0.0.2");
      if (status === 200) answered[path === "/search" ? "search" : "notes"]++;
      times.push(ms);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  running = false;
  await Promise.all(flood);
  log(
    `search cost: another visitor answered ${answered.search}/${FAIRNESS_REQUESTS} searches, ${answered.notes} lists`,
  );
  return { attackers, query: worst, ...answered, of: FAIRNESS_REQUESTS, p50Ms: round1(median(times)) };
}

async function uniqueQueries(baseUrl: string, pid: number) {
  const rssBeforeMb = rssMb(pid);
  let count = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url: baseUrl,
        connections: UNIQUE_QUERIES.connections,
        amount: UNIQUE_QUERIES.requests,
        timeout: 10,
        requests: [
          {
            method: "GET",
            setupRequest: (request) => {
              count++;
              const path = count % 2 ? "/search" : "/notes";
              return { ...request, path: `${path}?q=unique+${count.toString(36)}+words` };
            },
          },
        ],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    ),
  );
  const statuses: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stats?.count ?? 0;
  return { ...UNIQUE_QUERIES, rssBeforeMb, rssAfterMb: rssMb(pid), statuses };
}

/** `root`: the project whose build the server at `baseUrl` (process `pid`) serves. */
export async function measureSearchCost(
  root: string,
  baseUrl: string,
  pid: number | undefined,
  log: (message: string) => void,
): Promise<SearchCostFigures> {
  if (pid === undefined) throw new Error("the server's process id is needed to read its memory");
  const index = buildSearchIndex(searchDocuments(loadCatalogue(root)));
  const ordinary: QueryCost[] = [];
  for (const query of ORDINARY) ordinary.push(await queryCost(index, baseUrl, query));
  const worst: QueryCost[] = [];
  for (const [name, query] of Object.entries(WORST_QUERIES)) {
    worst.push({ ...(await queryCost(index, baseUrl, query)), query: name });
    log(`search cost: ${name}: ${worst.at(-1)?.httpMs} ms over HTTP`);
  }
  const costliest = Math.max(...worst.map((cost) => cost.httpMs));
  const ordinaryMs = Math.max(...ordinary.map((cost) => cost.httpMs));
  const fair = await fairness(baseUrl, FAIRNESS_QUERY, log);
  log(`search cost: ${UNIQUE_QUERIES.requests} unique queries`);
  return {
    samples: SAMPLES,
    ordinary,
    worst,
    worstOverOrdinary: round1(costliest / ordinaryMs),
    fairness: fair,
    uniqueQueries: await uniqueQueries(baseUrl, pid),
  };
}
