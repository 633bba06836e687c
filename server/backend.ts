/**
 * The backend of sign-up and contact, assembled: database (migrated at open), mailer, outbox
 * worker (started, so messages left pending by an earlier run go out now), services and the JSON
 * API. server/main.ts starts it once and calls `close()` on shutdown.
 */
import type { Context, Hono } from "hono";
import type { FormServices } from "../rules/form-services.ts";
import { createApi } from "./api.ts";
import type { Config } from "./config.ts";
import { type Database, openDatabase } from "./db.ts";
import { clientAddressReader, requestOriginReader } from "./forwarded.ts";
import { createMailer, type Mailer, type MailerOptions } from "./mail.ts";
import { createOutbox, messageIdDomainOf, type Outbox, type OutboxOptions } from "./outbox.ts";
import { createServices } from "./services.ts";

export type BackendOptions = {
  /** The visitor's address; default: as config.trustProxy says (server/forwarded.ts). */
  clientIp?: (c: Context) => string | undefined;
  outbox?: Partial<OutboxOptions>;
  mailer?: MailerOptions;
  /** Start the outbox worker (default true). */
  startOutbox?: boolean;
  log?: (message: string, error?: unknown) => void;
};

export type Backend = {
  database: Database;
  mailer: Mailer;
  outbox: Outbox;
  services: FormServices;
  /** Routes /api/user, /api/email (and a JSON 404 for other /api/ paths): `app.route("/", api)`. */
  api: Hono;
  /** Stops the worker (waiting for a send in flight), then closes the mailer and the database. */
  close(): Promise<void>;
};

export function startBackend(config: Config, options: BackendOptions = {}): Backend {
  const log = options.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const database = openDatabase(config.dataDir);
  const mailer = createMailer(config, options.mailer);
  const outbox = createOutbox(database.db, mailer, {
    messageIdDomain: messageIdDomainOf(config.mailFrom),
    retentionMs: config.messageRetentionDays * 24 * 60 * 60 * 1000,
    log: (message, error) => log(`[outbox] ${message}`, error),
    ...options.outbox,
  });
  const services = createServices({ db: database.db, outbox, config, log });
  const api = createApi({
    services,
    siteUrl: config.siteUrl,
    clientIp: options.clientIp ?? clientAddressReader(config.trustProxy),
    ownOrigin: requestOriginReader(config.trustProxy),
    log,
  });
  if (options.startOutbox ?? true) outbox.start();

  let closing: Promise<void> | undefined;
  return {
    database,
    mailer,
    outbox,
    services,
    api,
    close() {
      closing ??= (async () => {
        await outbox.stop();
        mailer.close();
        await database.close();
      })();
      return closing;
    },
  };
}
