/**
 * The site's database (DESIGN §3, §9.4): by default the embedded SQLite file `${dataDir}/site.db`;
 * with DATABASE_URL=postgres://… a PostgreSQL server that several app instances share. Both hold
 * the same tables (server/migrations/), the data functions are the same Kysely queries, and what
 * differs between the engines lives here: how the connection is opened, how migrations are
 * applied and locked, and the row lock a worker's claim takes (`skipLockedOnPostgres`).
 *
 * SQLite: opening creates the folder, sets WAL mode, a busy timeout and foreign keys, and applies
 * the migrations the file has not seen (PRAGMA user_version), each under SQLite's write lock.
 * PostgreSQL: opening applies the migrations under an advisory lock (`pg_advisory_lock`), so
 * instances that start together apply each migration once; 64-bit integers (epoch milliseconds,
 * counts) are read as JavaScript numbers, like SQLite's.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import {
  type Generated,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  type SelectQueryBuilder,
  SqliteDialect,
} from "kysely";
import pg from "pg";
import { MIGRATIONS } from "./migrations/index.ts";

/**
 * `pending` until the person confirms from the mail (double opt-in); `bounced` when the SMTP
 * server refused a newsletter mail to them for good (never mailed again).
 */
export type SubscriberStatus = "pending" | "confirmed" | "unsubscribed" | "bounced";

export type SubscribersTable = {
  id: Generated<number>;
  /** As entered, trimmed. */
  email: string;
  /** The uniqueness key: trimmed, NFC, lower case; UNIQUE in the database. */
  email_lower: string;
  /** ISO 8601 instant of the (latest) consent: the sign-up. Part of the confirm token, so a new sign-up voids old links. */
  created_at: string;
  status: SubscriberStatus;
  /** The address the sign-up came from (consent record); null for imports and older rows. */
  client_ip: string | null;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  /** When the last confirmation mail was queued: a pending sign-up re-sends at most every 10 minutes. */
  confirmation_sent_at: string | null;
};

/** `confirmation`: the double opt-in mail to a subscriber (to `email`, no Reply-To). */
export type MessageKind = "contact" | "confirmation";

/** `failed`: the SMTP server refused the message for good (a 5xx reply); never retried by itself. */
export type MessageStatus = "pending" | "sent" | "failed";

export type MessagesTable = {
  id: Generated<number>;
  /** RFC 5322 Message-ID with its angle brackets, chosen at insert: a re-send reuses it. */
  message_id: string;
  email: string;
  subject: string;
  body: string;
  /** ISO 8601 instant; also the Date header of the mail, identical on every attempt. */
  created_at: string;
  status: MessageStatus;
  /** `contact` goes to the owner with `email` as Reply-To; `confirmation` goes to `email`. */
  kind: Generated<MessageKind>;
  /** Delivery attempts started (a claim counts as one). */
  attempts: Generated<number>;
  /**
   * Epoch milliseconds before which no worker may try this message. A claim pushes it one lease
   * ahead, so a worker that dies mid-send gives the message back when the lease runs out.
   */
  next_attempt_at: number;
  /** The token of the worker that claimed the message last, null when unclaimed. */
  claim_token: string | null;
  /** Why the last attempt failed (internal, never shown to visitors). */
  last_error: string | null;
  /** ISO 8601 instant of delivery. */
  sent_at: string | null;
};

/** One newsletter issue sent (or being sent): the mail frozen at the moment of `send`. */
export type NewsletterSendsTable = {
  id: Generated<number>;
  slug: string;
  subject: string;
  /** The issue's body as HTML with absolute links; the worker wraps it per recipient. */
  body_html: string;
  /** The issue's body as plain text (Markdown with absolute links). */
  body_text: string;
  /** Absolute URL of the issue's page on the site. */
  issue_url: string;
  /** The owner's name, for the From display name and the footer. */
  site_name: string;
  created_at: string;
};

/**
 * `skipped`: the person unsubscribed (or was removed) after the send froze its recipients;
 * `bounced`: a 5xx reply, never retried.
 */
export type DeliveryStatus = "pending" | "sent" | "bounced" | "skipped";

/** One recipient of one send, delivered like a contact message (claim, lease, back-off). */
export type NewsletterDeliveriesTable = {
  id: Generated<number>;
  send_id: number;
  subscriber_id: number;
  /** Chosen when the send is frozen: every attempt of this delivery carries it. */
  message_id: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: number;
  claim_token: string | null;
  last_error: string | null;
  sent_at: string | null;
};

/** One row (id 1): the next moment a newsletter mail may start, shared by every sending process. */
export type NewsletterPacingTable = {
  id: number;
  next_slot_at: number;
};

/** One counted form submission (PostgreSQL's shared rate limit, server/rate-limit.ts). */
export type RateLimitHitsTable = {
  key: string;
  /** Epoch milliseconds. */
  at: number;
};

export type Tables = {
  subscribers: SubscribersTable;
  messages: MessagesTable;
  newsletter_sends: NewsletterSendsTable;
  newsletter_deliveries: NewsletterDeliveriesTable;
  newsletter_pacing: NewsletterPacingTable;
  rate_limit_hits: RateLimitHitsTable;
};

export type Db = Kysely<Tables>;

export const SCHEMA_VERSION = MIGRATIONS.length;

export type Dialect = "sqlite" | "postgres";

type DatabaseHandle = {
  db: Db;
  /** Closes the connection(s); calling it again does nothing. */
  close(): Promise<void>;
};

export type SqliteDatabase = DatabaseHandle & {
  dialect: "sqlite";
  /** The underlying connection, for PRAGMAs and tests. */
  sqlite: BetterSqlite3.Database;
  path: string;
};

export type PostgresDatabase = DatabaseHandle & {
  dialect: "postgres";
  pool: pg.Pool;
};

export type Database = SqliteDatabase | PostgresDatabase;

function newerSchemaError(found: number) {
  return new Error(
    `The database has schema version ${found}, newer than this code knows (${MIGRATIONS.length}): refusing to use it.`,
  );
}

/** Applies the pending migrations to a SQLite file; returns the schema version reached. */
export function migrate(sqlite: BetterSqlite3.Database): number {
  const current = () => sqlite.pragma("user_version", { simple: true }) as number;
  if (current() > MIGRATIONS.length) throw newerSchemaError(current());
  for (let version = current(); version < MIGRATIONS.length; version++) {
    // IMMEDIATE takes the write lock first, so two processes cannot apply the same step twice:
    // the second one waits (busy_timeout), then sees the new version and skips it.
    sqlite
      .transaction(() => {
        if (current() !== version) return;
        sqlite.exec((MIGRATIONS[version] as { sqlite: string }).sqlite);
        sqlite.pragma(`user_version = ${version + 1}`);
      })
      .immediate();
  }
  return current();
}

/** The embedded database in `dataDir` (created when missing), migrated. */
export function openDatabase(dataDir: string): SqliteDatabase {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "site.db");
  const sqlite = new BetterSqlite3(path);
  try {
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("journal_mode = WAL");
    // FULL: a message acknowledged with 202 survives a power cut, not only a process crash.
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    migrate(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  let closed = false;
  return {
    dialect: "sqlite",
    db,
    sqlite,
    path,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      // Kysely closes the connection only if it ever used it.
      if (sqlite.open) sqlite.close();
    },
  };
}

/** The key of the advisory lock that serialises migrations across instances ("site" in ASCII). */
const MIGRATION_LOCK = 0x73697465;

/**
 * Applies the pending migrations to a PostgreSQL database; returns the schema version reached.
 * The session-level advisory lock makes instances starting together wait for each other; every
 * migration runs in its own transaction (PostgreSQL's DDL is transactional), with its version.
 */
export async function migratePostgres(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query(
        "CREATE TABLE IF NOT EXISTS schema_version (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)",
      );
      await client.query("INSERT INTO schema_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING");
      const current = async () =>
        (await client.query<{ version: number }>("SELECT version FROM schema_version WHERE id = 1")).rows[0]?.version ??
        0;
      const found = await current();
      if (found > MIGRATIONS.length) throw newerSchemaError(found);
      for (let version = found; version < MIGRATIONS.length; version++) {
        await client.query("BEGIN");
        try {
          await client.query((MIGRATIONS[version] as { postgres: string }).postgres);
          await client.query("UPDATE schema_version SET version = $1 WHERE id = 1", [version + 1]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
      }
      return await current();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** 64-bit integers (epoch milliseconds, counts) as numbers: every value we store is far below 2^53. */
const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 && format !== "binary"
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

export type PostgresOptions = {
  /** Connections this process opens at most. */
  maxConnections?: number;
  log?: (message: string, error?: unknown) => void;
};

/** The PostgreSQL database at `url` (postgres://…), migrated. */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresDatabase> {
  const log = options.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    types: postgresTypes,
    connectionTimeoutMillis: 10_000,
  });
  // A connection that breaks while idle (a server restart) is dropped by the pool; without a
  // listener the error would end the process.
  pool.on("error", (error) => log("PostgreSQL: an idle connection failed", error));
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    dialect: "postgres",
    db,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      // Ends the pool too.
      await db.destroy();
    },
  };
}

/** The database the configuration names: PostgreSQL with DATABASE_URL, else SQLite in DATA_DIR. */
export function connectDatabase(
  config: { dataDir: string; databaseUrl: string | undefined },
  options: PostgresOptions = {},
): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, options);
  return Promise.resolve(openDatabase(config.dataDir));
}

/**
 * Whether `db` (or a transaction of it) talks to PostgreSQL. Kysely has no public way to ask: its
 * executor's adapter is the one object every transaction shares with the instance it came from.
 */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The row lock of a worker's claim: on PostgreSQL the claim's inner SELECT locks the rows it picks
 * and passes over rows another instance is claiming (FOR UPDATE SKIP LOCKED), so N instances
 * claim different rows at the same moment. SQLite runs every write under one lock and has no
 * such clause: there the claim's single UPDATE is already exclusive.
 */
export function skipLockedOnPostgres(db: Db) {
  return <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) =>
    isPostgres(db) ? query.forUpdate().skipLocked() : query;
}

/** The queues the mail workers drain: rows with a status and the time of their next attempt. */
export type QueueTable = "messages" | "newsletter_deliveries";

/** When the earliest pending row of a queue is due (epoch milliseconds), or null when none is. */
export async function nextPendingDue(db: Db, table: QueueTable): Promise<number | null> {
  const next = await db
    .selectFrom(table)
    .select((eb) => eb.fn.min("next_attempt_at").as("due"))
    .where("status", "=", "pending")
    .executeTakeFirst();
  return next?.due == null ? null : Number(next.due);
}
