/**
 * The fediverse door under load, in one process on 127.0.0.1 (FEDERATION_ALLOW_LOOPBACK=1):
 *
 * - fan-out: the site's backend on a temporary SQLite DATA_DIR with BENCH_FOLLOWERS (10,000) followers
 *   on BENCH_INBOXES (500) shared inboxes, all on a local sink that accepts and counts; one essay is
 *   published, and the sink times the deliveries from the first to the last. Fedify signs each one.
 * - inbox: BENCH_INBOX_REPLIES (1,000) replies from a second Fedify server, BENCH_INBOX_CONCURRENCY (16)
 *   at a time, each looked up, signed, posted, its signature verified by the site and stored.
 *
 * The resident set is this process's (site, sink and sender together), sampled every 100 ms, per phase. Runs alone with
 * `npx tsx bench/fediverse.ts`.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { startBackend } from "../services/backend.ts";
import { parseConfig } from "../services/config.ts";
import { startFediverseReader } from "../tests/support/fediverse-reader.ts";
import { freePort, tempDir } from "./processes.ts";
import { round1 } from "./stats.ts";

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 10_000);
const INBOXES = Number(process.env.BENCH_INBOXES ?? 500);
const REPLIES = Number(process.env.BENCH_INBOX_REPLIES ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_INBOX_CONCURRENCY ?? 16);
const HANDLE = "bench";

export type FediverseFigures = {
  followers: number;
  sharedInboxes: number;
  /** Deliveries the sink accepted per second, first to last. */
  deliveriesPerSecond: number;
  /** From the publish call to the last delivery. */
  secondsToLast: number;
  /** Distinct shared inboxes that received the essay, and how many deliveries arrived in all. */
  inboxesReached: number;
  deliveries: number;
  /** Peak resident set while the essay fans out, MB. */
  peakRssMb: number;
  /** Peak resident set while the inbox takes the replies, MB. */
  inboxPeakRssMb: number;
  /** Signed replies verified and stored per second, the sender signing in the same process. */
  inboxRequestsPerSecond: number;
  repliesStored: number;
};

function startSink(): Promise<{ server: Server; port: number; arrivals: { inbox: string; at: number }[] }> {
  const arrivals: { inbox: string; at: number }[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    request.resume();
    request.on("end", () => {
      if (request.method === "POST") arrivals.push({ inbox: request.url ?? "", at: performance.now() });
      response.writeHead(202).end();
    });
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () => done({ server, port: (server.address() as AddressInfo).port, arrivals })),
  );
}

export async function measureFediverse(): Promise<FediverseFigures> {
  const dataDir = tempDir("bench-fediverse-");
  const port = await freePort();
  const siteUrl = `http://127.0.0.1:${port}`;
  const config = {
    ...parseConfig(
      { DATA_DIR: dataDir, SITE_URL: siteUrl, FEDERATION_ALLOW_LOOPBACK: "1" },
      { ownerEmail: "owner@example.com" },
    ),
    secretKey: "bench-secret-0123456789abcdef0123456789abcdef",
  };
  const backend = await startBackend(config, { log: () => {} });
  const { federation } = backend.federation;
  backend.federation.setIdentity({
    handle: HANDLE,
    name: "Bench",
    summary: "A site under load.",
    icon: { path: "/apple-touch-icon.png", mediaType: "image/png" },
    links: [],
  });
  // Everything that is not the actor's is a live page, as the built site's are.
  const site = serve({
    fetch: async (request) => {
      const response = await federation.fetch(request, { contextData: undefined });
      return response.status === 404 || response.status === 406 ? new Response("A page.") : response;
    },
    hostname: "127.0.0.1",
    port,
  });
  const sink = await startSink();
  const sinkOrigin = `http://127.0.0.1:${sink.port}`;
  const followedAt = new Date().toISOString();
  const followers = Array.from({ length: FOLLOWERS }, (_, index) => ({
    actor_url: `${sinkOrigin}/users/${index}`,
    inbox: `${sinkOrigin}/users/${index}/inbox`,
    shared_inbox: `${sinkOrigin}/inbox/${index % INBOXES}`,
    followed_at: followedAt,
  }));
  for (let start = 0; start < followers.length; start += 500) {
    await backend.database.db
      .insertInto("fediverse_followers")
      .values(followers.slice(start, start + 500))
      .execute();
  }

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const publishedAt = performance.now();
  const essay = {
    path: "/write/under-load",
    type: "Article" as const,
    name: "Under load",
    html: `<p>${"An essay sent to every follower. ".repeat(60)}</p>`,
  };
  await backend.federation.publish([essay]);
  const deadline = Date.now() + 10 * 60_000;
  while (new Set(sink.arrivals.map((arrival) => arrival.inbox)).size < INBOXES && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50));
  }
  // Late duplicates, if any, would arrive in the next moments.
  await new Promise((done) => setTimeout(done, 2_000));
  const fanOutPeakRss = peakRss;
  peakRss = process.memoryUsage().rss;
  const times = sink.arrivals.map((arrival) => arrival.at);
  const first = Math.min(...times);
  const last = Math.max(...times);

  const reader = await startFediverseReader();
  const actorUrl = `${siteUrl}/ap/actors/${HANDLE}`;
  const object = await backend.database.db.selectFrom("fediverse_posts").select("id").executeTakeFirstOrThrow();
  const objectUrl = `${siteUrl}/ap/articles/${object.id}`;
  await reader.reply(actorUrl, objectUrl, "A first reply, which fetches the keys.");
  const inboxStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REPLIES) {
        next++;
        await reader.reply(actorUrl, objectUrl, `Reply ${next} under load.`);
      }
    }),
  );
  const inboxSeconds = (performance.now() - inboxStart) / 1000;
  const stored = await backend.database.db
    .selectFrom("replies")
    .select((count) => count.fn.countAll<number>().as("replies"))
    .executeTakeFirstOrThrow();
  clearInterval(sampler);

  await reader.stop();
  site.close();
  sink.server.close();
  await backend.close();
  return {
    followers: FOLLOWERS,
    sharedInboxes: INBOXES,
    deliveriesPerSecond: round1(sink.arrivals.length / Math.max((last - first) / 1000, 0.001)),
    secondsToLast: round1((last - publishedAt) / 1000),
    inboxesReached: new Set(sink.arrivals.map((arrival) => arrival.inbox)).size,
    deliveries: sink.arrivals.length,
    peakRssMb: Math.round(fanOutPeakRss / 1024 / 1024),
    inboxPeakRssMb: Math.round(peakRss / 1024 / 1024),
    inboxRequestsPerSecond: round1(REPLIES / inboxSeconds),
    repliesStored: Number(stored.replies) - 1,
  };
}

export function describeFediverse(figures: FediverseFigures): string {
  return [
    `Fediverse: one essay to ${figures.followers} followers on ${figures.sharedInboxes} shared inboxes`,
    `  ${figures.deliveries} deliveries to ${figures.inboxesReached} inboxes, ${figures.deliveriesPerSecond}/s, the last ${figures.secondsToLast} s after publishing; peak RSS ${figures.peakRssMb} MB`,
    `  inbox: ${figures.inboxRequestsPerSecond} signed replies/s verified and stored (${figures.repliesStored} stored); peak RSS ${figures.inboxPeakRssMb} MB`,
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureFediverse(), null, 2));
  process.exit(0);
}
