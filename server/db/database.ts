/**
 * The site's database: by default the embedded SQLite file `${dataDir}/site.db`; with
 * DATABASE_URL=postgres://… a PostgreSQL server that several app instances share. Both hold the
 * same tables (server/migrations/, applied by Kysely's Migrator), the data functions are the same
 * Kysely queries, and what differs between the engines lives here: how the connection is opened,
 * how migrating is locked, and the row lock a worker's claim takes (`skipLockedOnPostgres`).
 *
 * SQLite: opening creates the folder, sets WAL mode, a busy timeout and foreign keys, and migrates
 * under SQLite's write lock. PostgreSQL: opening migrates under an advisory lock, so instances that
 * start together apply each step once; 64-bit integers (epoch milliseconds, counts) are read as
 * JavaScript numbers, like SQLite's.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import {
  DEFAULT_MIGRATION_TABLE,
  type Generated,
  Kysely,
  type Migration,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  type SelectQueryBuilder,
  SqliteDialect,
  sql,
} from "kysely";
import pg from "pg";
import { migrationsFor, STEP_NAMES } from "./migrations/index.ts";
import type { Engine } from "./migrations/schema.ts";

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
  /** Set while the send is paused (its deliveries wait until `npm run newsletter -- resume`). */
  paused_at: string | null;
  /** Why it was paused, in words for the owner. */
  pause_reason: string | null;
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

export const SCHEMA_VERSION = STEP_NAMES.length;

export type Dialect = Engine;

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

/** The key of the advisory lock that serialises migrations across instances ("site" in ASCII). */
const MIGRATION_LOCK = 0x73697465;

/**
 * What migrating needs of each engine: a lock held by one process at a time, and the schema
 * version as the releases before Kysely's Migrator recorded it. That number is still kept, so that
 * an older release refuses a database a newer one has migrated, and read once to adopt a database
 * such a release made.
 */
const MIGRATION_ENGINE: Record<
  Engine,
  {
    lock(db: Db): Promise<unknown>;
    unlock(db: Db, succeeded: boolean): Promise<unknown>;
    readVersion(db: Db): Promise<number>;
    writeVersion(db: Db, version: number): Promise<unknown>;
  }
> = {
  sqlite: {
    // IMMEDIATE takes the write lock first: a second process waits (busy_timeout), then finds the work done.
    lock: (db) => sql`BEGIN IMMEDIATE`.execute(db),
    unlock: (db, succeeded) => sql.raw(succeeded ? "COMMIT" : "ROLLBACK").execute(db),
    readVersion: async (db) =>
      (await sql<{ user_version: number }>`PRAGMA user_version`.execute(db)).rows[0]?.user_version ?? 0,
    writeVersion: (db, version) => sql.raw(`PRAGMA user_version = ${Number(version)}`).execute(db),
  },
  postgres: {
    lock: (db) => sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`.execute(db),
    unlock: (db) => sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.execute(db),
    async readVersion(db) {
      await sql`CREATE TABLE IF NOT EXISTS schema_version (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)`.execute(
        db,
      );
      await sql`INSERT INTO schema_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`.execute(db);
      return (
        (await sql<{ version: number }>`SELECT version FROM schema_version WHERE id = 1`.execute(db)).rows[0]
          ?.version ?? 0
      );
    },
    writeVersion: (db, version) => sql`UPDATE schema_version SET version = ${version} WHERE id = 1`.execute(db),
  },
};

async function runMigrator(db: Db, migrations: Record<string, Migration>) {
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) throw error;
}

/**
 * Applies the pending migrations with Kysely's Migrator, one process at a time; returns the schema
 * version reached. A database an older release made (its version recorded, no Migrator table yet)
 * is adopted first: its steps are recorded as done without running them again.
 */
export async function migrate(db: Db): Promise<number> {
  const engine: Engine = isPostgres(db) ? "postgres" : "sqlite";
  const migrations = migrationsFor(engine);
  const { lock, unlock, readVersion, writeVersion } = MIGRATION_ENGINE[engine];
  return db.connection().execute(async (connection) => {
    await lock(connection);
    let succeeded = false;
    try {
      const found = await readVersion(connection);
      if (found > STEP_NAMES.length) {
        throw new Error(
          `The database has schema version ${found}, newer than this code knows (${STEP_NAMES.length}): refusing to use it.`,
        );
      }
      const tables = await connection.introspection.getTables({ withInternalKyselyTables: true });
      if (found > 0 && !tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE)) {
        const done = STEP_NAMES.slice(0, found).map((name) => [name, { up: async () => {} }]);
        await runMigrator(connection, Object.fromEntries(done));
      }
      await runMigrator(connection, migrations);
      await writeVersion(connection, STEP_NAMES.length);
      succeeded = true;
      return STEP_NAMES.length;
    } finally {
      await unlock(connection, succeeded);
    }
  });
}

/** The embedded database in `dataDir` (created when missing), migrated. */
export async function openDatabase(dataDir: string): Promise<SqliteDatabase> {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "site.db");
  const sqlite = new BetterSqlite3(path);
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await db.destroy();
    // Kysely closes the connection only if it ever used it.
    if (sqlite.open) sqlite.close();
  };
  try {
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("journal_mode = WAL");
    // FULL: a message acknowledged with 202 survives a power cut, not only a process crash.
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    await migrate(db);
  } catch (error) {
    await close();
    throw error;
  }
  return { dialect: "sqlite", db, sqlite, path, close };
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
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrate(db);
  } catch (error) {
    // Ends the pool too.
    await db.destroy();
    throw error;
  }
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
  return openDatabase(config.dataDir);
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
