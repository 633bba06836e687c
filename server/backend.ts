/**
 * The backend of sign-up and contact, assembled: database (SQLite or PostgreSQL, migrated at open), mailer, outbox
 * worker (started, so messages left pending by an earlier run go out now), services and the JSON
 * API. server/main.ts starts it once and calls `close()` on shutdown.
 */
import type { Context, Hono } from "hono";
import type { FormServices, NewsletterLinks } from "../rules/form-services.ts";
import type { Config } from "./config.ts";
import { connectDatabase, type Database } from "./db/database.ts";
import { createDatabaseRateLimiter } from "./forms/rate-limit.ts";
import { createServices } from "./forms/submit.ts";
import { createApi } from "./http/api.ts";
import { clientAddressReader, requestOriginReader } from "./http/forwarded.ts";
import { createOutbox, messageIdDomainOf, type Outbox, type OutboxOptions } from "./mail/outbox.ts";
import { createMailer, type Mailer, type MailerOptions } from "./mail/transport.ts";
import {
  checkConfirmToken,
  confirmSubscription,
  subscriberOfUnsubscribeToken,
  unsubscribe,
} from "./newsletter/subscriptions.ts";
import { createNewsletterWorker, type NewsletterWorker, type NewsletterWorkerOptions } from "./newsletter/worker.ts";

export type BackendOptions = {
  /** The visitor's address; default: as config.trustProxy says (server/http/forwarded.ts). */
  clientIp?: (c: Context) => string | undefined;
  outbox?: Partial<OutboxOptions>;
  newsletter?: Partial<NewsletterWorkerOptions>;
  mailer?: MailerOptions;
  /** Start the outbox and newsletter workers (default true). */
  startOutbox?: boolean;
  log?: (message: string, error?: unknown) => void;
};

export type Backend = {
  database: Database;
  mailer: Mailer;
  outbox: Outbox;
  services: FormServices;
  /** Delivers newsletter sends (frozen by `npm run newsletter -- send`). */
  newsletter: NewsletterWorker;
  /** What the confirm and unsubscribe pages ask (rules/form-services.ts). */
  newsletterLinks: NewsletterLinks;
  /** Routes /api/user, /api/email (and a JSON 404 for other /api/ paths): `app.route("/", api)`. */
  api: Hono;
  /** Stops the worker (waiting for a send in flight), then closes the mailer and the database. */
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
  // Instances sharing PostgreSQL share the count too; one SQLite process counts in memory.
  const rateLimiter =
    database.dialect === "postgres" ? createDatabaseRateLimiter(database.db, { limit: config.rateLimit }) : undefined;
  const services = createServices({ db: database.db, outbox, config, rateLimiter, log });
  const api = createApi({
    services,
    siteUrl: config.siteUrl,
    clientIp: options.clientIp ?? clientAddressReader(config.trustProxy),
    ownOrigin: requestOriginReader(config.trustProxy),
    log,
  });
  const bulkMailer = createMailer(config, { ...options.mailer, pool: true });
  const newsletter = createNewsletterWorker(database.db, bulkMailer, {
    secretKey: config.secretKey,
    siteUrl: config.siteUrl,
    rate: config.newsletterRate,
    batch: config.newsletterBatch,
    log: (message, error) => log(`[newsletter] ${message}`, error),
    ...options.newsletter,
  });
  const { db } = database;
  const { secretKey } = config;
  const newsletterLinks: NewsletterLinks = {
    checkConfirm: async (token) => (await checkConfirmToken(db, secretKey, token)).state,
    confirm: (token) => confirmSubscription(db, secretKey, token),
    checkUnsubscribe: async (token) =>
      (await subscriberOfUnsubscribeToken(db, secretKey, token)) ? "valid" : "invalid",
    unsubscribe: (token) => unsubscribe(db, secretKey, token),
  };
  if (options.startOutbox ?? true) {
    outbox.start();
    newsletter.start();
  }

  let closing: Promise<void> | undefined;
  return {
    database,
    mailer,
    outbox,
    services,
    newsletter,
    newsletterLinks,
    api,
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
