import type { Config } from "./config.ts";
import { connectDatabase } from "./db/database.ts";
import { createSiteFederation } from "./federation/site-actor.ts";
import { createDatabaseRateLimiter, createRateLimiter } from "./forms/rate-limit.ts";
import { createOutbox, messageIdDomainOf, type OutboxOptions } from "./mail/outbox.ts";
import { createMailer } from "./mail/transport.ts";
import { watchBounceMailbox } from "./newsletter/bounces.ts";
import { createNewsletterWorker, type NewsletterWorkerOptions, workerSettingsOf } from "./newsletter/worker.ts";
import type { LoopOptions } from "./webmention/claims.ts";
import { createWebmentions } from "./webmention/webmentions.ts";

export type BackendOptions = {
  outbox?: Partial<OutboxOptions>;
  newsletter?: Partial<NewsletterWorkerOptions>;
  webmentions?: { loop?: Partial<LoopOptions>; liveWait?: { tries: number; intervalMs: number } };
  startOutbox?: boolean;
  log?: (message: string, error?: unknown) => void;
};

export type Backend = Awaited<ReturnType<typeof startBackend>>;

/** Per source host per 10 minutes: a site announcing a new post to many of ours is not cut short; RATE_LIMIT=0 lifts it. */
export const WEBMENTIONS_PER_SOURCE_HOST = 60;

export async function startBackend(config: Config, options: BackendOptions = {}) {
  const log = options.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const database = await connectDatabase(config, log);
  const mailer = createMailer(config);
  const outbox = createOutbox(database.db, mailer, {
    messageIdDomain: messageIdDomainOf(config.mailFrom),
    retentionMs: config.messageRetentionDays * 24 * 60 * 60 * 1000,
    log: (message, error) => log(`[outbox] ${message}`, error),
    ...options.outbox,
  });
  const limiterOf = (limit: number) =>
    database.dialect === "postgres" ? createDatabaseRateLimiter(database.db, { limit }) : createRateLimiter({ limit });
  const rateLimiter = limiterOf(config.rateLimit);
  const bulkMailer = createMailer(config, { pool: true });
  const newsletter = createNewsletterWorker(database.db, bulkMailer, {
    ...workerSettingsOf(config),
    log: (message, error) => log(`[newsletter] ${message}`, error),
    ...options.newsletter,
  });
  const { bounceImapUrl } = config;
  const startQueues = options.startOutbox ?? true;
  const federation = createSiteFederation(database.db, {
    siteUrl: config.siteUrl,
    allowLoopback: config.federationAllowLoopback,
    startQueue: startQueues,
    replies: { outbox, siteUrl: config.siteUrl, ownerEmail: config.ownerEmail },
    log,
  });
  // A limiter of its own: a flood of webmentions cannot push the forms' counts out of memory.
  const webmentions = createWebmentions(database.db, {
    siteUrl: config.siteUrl,
    allowLoopback: config.federationAllowLoopback,
    rateLimiter: limiterOf(config.rateLimit === 0 ? 0 : WEBMENTIONS_PER_SOURCE_HOST),
    replies: { outbox, siteUrl: config.siteUrl, ownerEmail: config.ownerEmail },
    startWorkers: startQueues,
    ...options.webmentions,
    log,
  });
  if (startQueues) {
    outbox.start();
    newsletter.start();
  }
  const bounces =
    startQueues && bounceImapUrl
      ? watchBounceMailbox(database.db, { ...config, bounceImapUrl }, (message, error) =>
          log(`[bounces] ${message}`, error),
        )
      : undefined;

  let closing: Promise<void> | undefined;
  return {
    config,
    database,
    outbox,
    newsletter,
    rateLimiter,
    federation,
    webmentions,
    log,
    close() {
      closing ??= (async () => {
        await Promise.all([outbox.stop(), newsletter.stop(), bounces?.stop(), federation.stop(), webmentions.stop()]);
        mailer.close();
        bulkMailer.close();
        await database.close();
      })();
      return closing;
    },
  };
}
