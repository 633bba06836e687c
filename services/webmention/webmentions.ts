// The webmention door: received ones are stored at once and checked by a worker; a build's essays
// tell the pages they link to, once those essays are live.
import type { Db } from "../db/database.ts";
import type { RateLimiter } from "../forms/rate-limit.ts";
import { checkPageLive } from "../newsletter/live-page.ts";
import type { ReplyDeps } from "../replies/announce.ts";
import { DEFAULT_LOOP, type LoopOptions, runLoop } from "./claims.ts";
import { forgetRefused, receiveWebmention, type WebmentionInput } from "./receive.ts";
import { type LinkingPage, queueSends, sendsRecorded, sendWebmention } from "./send.ts";
import { verifyWebmention } from "./verify.ts";

export type WebmentionSettings = {
  siteUrl: string;
  allowLoopback: boolean;
  rateLimiter: RateLimiter;
  replies: Omit<ReplyDeps, "db">;
  loop?: Partial<LoopOptions>;
  startWorkers: boolean;
  /** How long a build's essays may take to be live before their links wait for the next build. */
  liveWait?: { tries: number; intervalMs: number };
  log: (message: string, error?: unknown) => void;
};

export type Webmentions = ReturnType<typeof createWebmentions>;

export function createWebmentions(db: Db, settings: WebmentionSettings) {
  const loop = { ...DEFAULT_LOOP, ...settings.loop };
  const log = (message: string, error?: unknown) => settings.log(`[webmention] ${message}`, error);
  const { allowLoopback } = settings;
  let lastSweep = Number.NEGATIVE_INFINITY;
  const sweepHourly = async () => {
    if (loop.now() - lastSweep < 60 * 60_000) return;
    lastSweep = loop.now();
    await forgetRefused(db, lastSweep);
  };
  const workers = settings.startWorkers
    ? [
        runLoop(
          db,
          "webmentions",
          loop,
          (row) => verifyWebmention({ db, replies: settings.replies, allowLoopback, loop }, row),
          log,
          sweepHourly,
        ),
        runLoop(db, "webmention_sends", loop, (row) => sendWebmention({ db, allowLoopback, loop }, row), log),
      ]
    : [];
  const stopping = new AbortController();

  /** Queues each live page's links; a page not yet live is asked again, a bounded number of times. */
  async function publish(pages: LinkingPage[]) {
    const { tries, intervalMs } = settings.liveWait ?? { tries: 120, intervalMs: 5_000 };
    let waiting = pages;
    for (let attempt = 0; attempt < tries && !stopping.signal.aborted; attempt++) {
      const left: LinkingPage[] = [];
      for (const page of waiting) {
        try {
          if (await sendsRecorded(db, page, settings.siteUrl)) continue;
          if ((await checkPageLive(page.url)).live) await queueSends(db, page, settings.siteUrl);
          else left.push(page);
        } catch (error) {
          log(`could not queue the webmentions of ${page.url}; tried again`, error);
          left.push(page);
        }
      }
      waiting = left;
      if (waiting.length === 0) return;
      await new Promise((done) => setTimeout(done, intervalMs));
    }
  }

  return {
    receive: (input: WebmentionInput) =>
      receiveWebmention({ db, siteUrl: settings.siteUrl, rateLimiter: settings.rateLimiter }, input),
    publish,
    async stop() {
      stopping.abort();
      await Promise.all(workers.map((worker) => worker.stop()));
    },
  };
}
