import type { Config } from "./config.ts";
import { connectDatabase } from "./db/database.ts";
import { createSiteFederation } from "./federation/site-actor.ts";
import { createDatabaseRateLimiter, createRateLimiter } from "./forms/rate-limit.ts";
import { createOutbox, messageIdDomainOf, type OutboxOptions } from "./mail/outbox.ts";
import { createMailer } from "./mail/transport.ts";
import { watchBounceMailbox } from "./newsletter/bounces.ts";
import { createNewsletterWorker, type NewsletterWorkerOptions, workerSettingsOf } from "./newsletter/worker.ts";

export type BackendOptions = {
  outbox?: Partial<OutboxOptions>;
  newsletter?: Partial<NewsletterWorkerOptions>;
  startOutbox?: boolean;
  log?: (message: string, error?: unknown) => void;
};

export type Backend = Awaited<ReturnType<typeof startBackend>>;

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
  const rateLimiter =
    database.dialect === "postgres"
      ? createDatabaseRateLimiter(database.db, { limit: config.rateLimit })
      : createRateLimiter({ limit: config.rateLimit });
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
    log,
    close() {
      closing ??= (async () => {
        await Promise.all([outbox.stop(), newsletter.stop(), bounces?.stop(), federation.stop()]);
        mailer.close();
        bulkMailer.close();
        await database.close();
      })();
      return closing;
    },
  };
}
