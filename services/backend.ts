import type { Config } from "./config.ts";
import { connectDatabase, type Database } from "./db/database.ts";
import { createDatabaseRateLimiter, createRateLimiter, type RateLimiter } from "./forms/rate-limit.ts";
import { createOutbox, messageIdDomainOf, type Outbox, type OutboxOptions } from "./mail/outbox.ts";
import { createMailer, type Mailer, type MailerOptions } from "./mail/transport.ts";
import {
  createNewsletterWorker,
  type NewsletterWorker,
  type NewsletterWorkerOptions,
  workerSettingsOf,
} from "./newsletter/worker.ts";

export type BackendOptions = {
  outbox?: Partial<OutboxOptions>;
  newsletter?: Partial<NewsletterWorkerOptions>;
  mailer?: MailerOptions;
  startOutbox?: boolean;
  log?: (message: string, error?: unknown) => void;
};

export type Backend = {
  config: Config;
  database: Database;
  mailer: Mailer;
  outbox: Outbox;
  newsletter: NewsletterWorker;
  rateLimiter: RateLimiter;
  log: (message: string, error?: unknown) => void;
  close(): Promise<void>;
};

export async function startBackend(config: Config, options: BackendOptions = {}): Promise<Backend> {
  const log = options.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const database = await connectDatabase(config, { log });
  const mailer = createMailer(config, options.mailer);
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
  const bulkMailer = createMailer(config, { ...options.mailer, pool: true });
  const newsletter = createNewsletterWorker(database.db, bulkMailer, {
    ...workerSettingsOf(config),
    log: (message, error) => log(`[newsletter] ${message}`, error),
    ...options.newsletter,
  });
  if (options.startOutbox ?? true) {
    outbox.start();
    newsletter.start();
  }

  let closing: Promise<void> | undefined;
  return {
    config,
    database,
    mailer,
    outbox,
    newsletter,
    rateLimiter,
    log,
    close() {
      closing ??= (async () => {
        await Promise.all([outbox.stop(), newsletter.stop()]);
        mailer.close();
        bulkMailer.close();
        await database.close();
      })();
      return closing;
    },
  };
}
