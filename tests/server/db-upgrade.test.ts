/**
 * A database written by the release before Kysely's Migrator (commit 9b33a46) migrates forward
 * without losing a row, and works: its pending mail goes out once, new sign-ups are stored.
 *
 * The fixtures were made by that release's own code (its connectDatabase, subscribe, outbox,
 * insertConfirmation and freezeSend, a few statuses set by hand): tests/server/fixtures/
 * release-9b33a46.db is its SQLite file, release-9b33a46.pg.sql the `pg_dump --inserts` of the same
 * rows on PostgreSQL.
 */
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, expect, test } from "vitest";
import type { Config } from "../../services/config.ts";
import { type Database, SCHEMA_VERSION } from "../../services/db/database.ts";
import { createOutbox } from "../../services/mail/outbox.ts";
import { createMailer } from "../../services/mail/transport.ts";
import { subscribe } from "../../services/newsletter/subscriptions.ts";
import { createNewsletterWorker } from "../../services/newsletter/worker.ts";
import {
  BACKEND,
  collectLog,
  databaseConfig,
  FAST_OUTBOX,
  makeTempDir,
  openTestDatabase,
  SITE_URL,
  type SmtpRecorder,
  startSmtp,
  TEST_SECRET,
} from "./helpers.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");
const OLD_TABLES = [
  "subscribers",
  "messages",
  "newsletter_sends",
  "newsletter_deliveries",
  "newsletter_pacing",
  "rate_limit_hits",
] as const;

let temp: ReturnType<typeof makeTempDir>;
let config: Config;
let smtp: SmtpRecorder;
const cleanups: (() => unknown)[] = [];

beforeEach(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
  config = await databaseConfig(temp.path, { smtpUrl: smtp.url });
  if (BACKEND === "sqlite") {
    copyFileSync(join(FIXTURES, "release-9b33a46.db"), join(temp.path, "site.db"));
  } else {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    // psql's own commands (\restrict) are not SQL.
    const dump = readFileSync(join(FIXTURES, "release-9b33a46.pg.sql"), "utf8").replace(/^\\.*$/gm, "");
    await client.query(dump);
    await client.end();
  }
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await smtp.stop();
  temp.remove();
});

async function open(): Promise<Database> {
  const database = await openTestDatabase(config);
  cleanups.push(() => database.close());
  return database;
}

/** Every row of the tables the old release had, as plain objects in id order. */
async function oldRows(database: Database) {
  const rows: Record<string, unknown[]> = {};
  for (const table of OLD_TABLES) {
    const order = table === "rate_limit_hits" ? sql`at` : sql`id`;
    rows[table] = (await sql`SELECT * FROM ${sql.table(table)} ORDER BY ${order}`.execute(database.db)).rows;
  }
  return rows;
}

test("the old release's database keeps every row, gains the new columns, and is at the current version", async () => {
  const reference = await (async () => {
    // The rows as the old release wrote them, read before anything migrates.
    if (BACKEND === "sqlite") {
      const { default: BetterSqlite3 } = await import("better-sqlite3");
      const raw = new BetterSqlite3(join(temp.path, "site.db"), { readonly: true });
      const rows: Record<string, unknown[]> = {};
      for (const table of OLD_TABLES) {
        rows[table] = raw.prepare(`SELECT * FROM ${table} ORDER BY ${table === "rate_limit_hits" ? "at" : "id"}`).all();
      }
      raw.close();
      return rows;
    }
    // 64-bit integers as numbers, as the site reads them.
    const types = {
      getTypeParser: (oid: number, format?: "text" | "binary") =>
        oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format),
    } as pg.CustomTypesConfig;
    const pool = new pg.Pool({ connectionString: config.databaseUrl, types });
    const rows: Record<string, unknown[]> = {};
    for (const table of OLD_TABLES) {
      rows[table] = (
        await pool.query(`SELECT * FROM ${table} ORDER BY ${table === "rate_limit_hits" ? "at" : "id"}`)
      ).rows;
    }
    await pool.end();
    return rows;
  })();
  expect(reference.subscribers).toHaveLength(6);
  expect(reference.messages).toHaveLength(4);
  expect(reference.newsletter_deliveries).toHaveLength(3);

  const database = await open();
  const migrated = await oldRows(database);
  const sends = reference.newsletter_sends as Record<string, unknown>[];
  expect(migrated).toEqual({
    ...reference,
    newsletter_sends: sends.map((send) => ({ ...send, paused_at: null, pause_reason: null })),
  });
  const version =
    database.dialect === "sqlite"
      ? database.sqlite.pragma("user_version", { simple: true })
      : (await sql<{ version: number }>`SELECT version FROM schema_version`.execute(database.db)).rows[0]?.version;
  expect(version).toBe(SCHEMA_VERSION);
  const steps = await database.db
    .selectFrom("kysely_migration" as never)
    .select("name" as never)
    .execute();
  expect(steps).toHaveLength(SCHEMA_VERSION);
});

test("after the upgrade the old release's pending mail goes out once and new rows are stored", async () => {
  const database = await open();
  const { log } = collectLog();
  const mailer = createMailer(config);
  cleanups.push(() => mailer.close());
  const outbox = createOutbox(database.db, mailer, { ...FAST_OUTBOX, log, messageIdDomain: "example.com" });
  expect(await outbox.deliverDue()).toBe(2);
  const worker = createNewsletterWorker(database.db, mailer, {
    ...FAST_OUTBOX,
    secretKey: TEST_SECRET,
    siteUrl: SITE_URL,
    rate: 0,
    log,
  });
  expect(await worker.deliverDue()).toBe(2);
  expect(await outbox.deliverDue()).toBe(0);
  expect(await worker.deliverDue()).toBe(0);
  expect(smtp.received.map((mail) => mail.envelope.to[0]).sort()).toEqual([
    "Pending@example.org",
    "bob@example.org",
    "eve@example.org",
    "owner@example.com",
  ]);
  expect((await subscribe(database.db, "new@example.org")).outcome).toBe("created");
  expect((await subscribe(database.db, "ADA@example.org")).outcome).toBe("exists");
});
