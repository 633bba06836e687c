// SQLite in DATA_DIR by default, or PostgreSQL shared by several instances with DATABASE_URL.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery,
  DEFAULT_MIGRATION_TABLE,
  type Generated,
  Kysely,
  type Migration,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  sql,
} from "kysely";
import pg from "pg";
import { type Engine, migrationsFor, STEP_NAMES } from "./migrations.ts";

/** `bounced`: the SMTP server refused a newsletter mail for good, so the address is never mailed again. */
export const SUBSCRIBER_STATUSES = ["pending", "confirmed", "unsubscribed", "bounced"] as const;

export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export type SubscribersTable = {
  id: Generated<number>;
  email: string;
  email_lower: string;
  /** Part of the confirm token, so a new sign-up voids old links. */
  created_at: string;
  status: SubscriberStatus;
  /** Consent record; null for imports and older rows. */
  client_ip: string | null;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  confirmation_sent_at: string | null;
};

export type MessageKind = "contact" | "confirmation";

export type MessageStatus = "pending" | "sent" | "failed";

export type DeliveryStatus = "pending" | "sent" | "bounced" | "skipped";

/** What the mail queue (mail/queue.ts) claims, leases and records a mail by. */
export type QueueColumns<Status extends string> = {
  id: Generated<number>;
  /** Chosen at insert so that a re-send reuses it. */
  message_id: string;
  status: Status;
  attempts: Generated<number>;
  /** A claim pushes it one lease ahead, so a worker that dies mid-send gives the mail back. */
  next_attempt_at: number;
  claim_token: string | null;
  last_error: string | null;
  sent_at: string | null;
};

export type MessagesTable = QueueColumns<MessageStatus> & {
  email: string;
  subject: string;
  body: string;
  /** Also the mail's Date header, identical on every attempt. */
  created_at: string;
  kind: Generated<MessageKind>;
};

export type NewsletterSendsTable = {
  id: Generated<number>;
  slug: string;
  subject: string;
  body_html: string;
  body_text: string;
  issue_url: string;
  site_name: string;
  created_at: string;
  paused_at: string | null;
  pause_reason: string | null;
};

export type NewsletterDeliveriesTable = QueueColumns<DeliveryStatus> & { send_id: number; subscriber_id: number };

/** `hard` and `soft`: a later bounce's 5.x.x or 4.x.x failure; `complaint`: an abuse report. */
export type MailReportKind = "hard" | "soft" | "delayed" | "complaint";

export type MailReportsTable = {
  id: Generated<number>;
  /** The report's Message-ID, or a hash of its bytes. */
  key: string;
  kind: MailReportKind;
  send_id: number;
  subscriber_id: number;
  detail: string;
  received_at: string;
};

export type FederationQueueTable = {
  id: Generated<number>;
  /** Fedify's message, as JSON. */
  message: string;
  ordering_key: string | null;
  deliver_at: number;
  /** A claim leases the message, so an instance that dies mid-delivery gives it back. */
  claimed_until: number | null;
  claim_token: string | null;
};

export type FediverseFollowersTable = {
  id: Generated<number>;
  actor_url: string;
  inbox: string;
  shared_inbox: string | null;
  followed_at: string;
};

export type FediversePostsTable = {
  id: Generated<number>;
  /** The item's page, e.g. /write/fear. */
  path: string;
  content_hash: string;
  /** The Publication sent, as JSON: the object its id dereferences to. */
  object: string;
  state: "published" | "deleted";
  updated_at: string;
};

export type ReplyKind = "fediverse" | "webmention" | "form";

export type ReplyStatus = "unconfirmed" | "pending" | "approved" | "rejected" | "blocked";

export type RepliesTable = {
  id: Generated<number>;
  kind: ReplyKind;
  /** The site path replied to, such as /write/fear. */
  target: string;
  author_name: string;
  author_url: string | null;
  author_address: string | null;
  /** Plain text as received; `html` is its one rendering, made and sanitized once at receipt. */
  text: string;
  html: string;
  source_url: string | null;
  written_at: string;
  received_at: string;
  status: ReplyStatus;
};

/** What a leased worker queue claims a row by: a claim pushes `claimed_until` ahead, so a dead worker gives it back. */
type LeasedColumns<Status extends string> = {
  id: Generated<number>;
  source: string;
  target: string;
  status: Status;
  attempts: Generated<number>;
  next_attempt_at: number;
  claimed_until: number | null;
  claim_token: string | null;
  reason: string | null;
  updated_at: string;
};

export type WebmentionStatus = "queued" | "verified" | "refused";

/** A webmention received: `source` is the page said to link to `target`, one of this site's. */
export type WebmentionsTable = LeasedColumns<WebmentionStatus> & {
  /** The reply its last check made, so that a later check can take it back. */
  reply_id: number | null;
  received_at: string;
};

export type WebmentionSendStatus = "queued" | "sent" | "no-endpoint" | "failed";

/** A webmention the site sends from one of its essays to a page it links to. */
export type WebmentionSendsTable = LeasedColumns<WebmentionSendStatus> & {
  /** The essay's content when last queued: an edit queues its links again. */
  content_hash: string;
  endpoint: string | null;
};

export type Tables = {
  subscribers: SubscribersTable;
  messages: MessagesTable;
  newsletter_sends: NewsletterSendsTable;
  newsletter_deliveries: NewsletterDeliveriesTable;
  newsletter_pacing: { id: number; next_slot_at: number };
  rate_limit_hits: { key: string; at: number };
  mail_reports: MailReportsTable;
  federation_kv: { key: string; value: string; expires_at: number | null };
  federation_queue: FederationQueueTable;
  fediverse_followers: FediverseFollowersTable;
  fediverse_posts: FediversePostsTable;
  replies: RepliesTable;
  reply_blocks: { id: Generated<number>; value: string; created_at: string; dropped: Generated<number> };
  webmentions: WebmentionsTable;
  webmention_sends: WebmentionSendsTable;
};

export type Db = Kysely<Tables>;

export const SCHEMA_VERSION = STEP_NAMES.length;

export type SqliteDatabase = { dialect: "sqlite"; db: Db; sqlite: BetterSqlite3.Database; close(): Promise<void> };

export type PostgresDatabase = { dialect: "postgres"; db: Db; close(): Promise<void> };

export type Database = SqliteDatabase | PostgresDatabase;

const MIGRATION_LOCK = 0x73697465;

// The pre-Migrator schema version is still written so that an older release refuses a newer database.
const MIGRATION_ENGINE = {
  sqlite: {
    // IMMEDIATE takes the write lock first: a second process waits (busy_timeout), then finds the work done.
    lock: (db: Db) => sql`BEGIN IMMEDIATE`.execute(db),
    unlock: (db: Db, succeeded: boolean) => sql.raw(succeeded ? "COMMIT" : "ROLLBACK").execute(db),
    readVersion: async (db: Db) =>
      (await sql<{ user_version: number }>`PRAGMA user_version`.execute(db)).rows[0]?.user_version ?? 0,
    writeVersion: (db: Db, version: number) => sql.raw(`PRAGMA user_version = ${Number(version)}`).execute(db),
  },
  postgres: {
    lock: (db: Db) => sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`.execute(db),
    unlock: (db: Db) => sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.execute(db),
    async readVersion(db: Db) {
      await sql`CREATE TABLE IF NOT EXISTS schema_version (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)`.execute(
        db,
      );
      await sql`INSERT INTO schema_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`.execute(db);
      return (
        (await sql<{ version: number }>`SELECT version FROM schema_version WHERE id = 1`.execute(db)).rows[0]
          ?.version ?? 0
      );
    },
    writeVersion: (db: Db, version: number) =>
      sql`UPDATE schema_version SET version = ${version} WHERE id = 1`.execute(db),
  },
} satisfies Record<Engine, object>;

async function runMigrator(db: Db, migrations: Record<string, Migration>) {
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) throw error;
}

/** A database from before the Migrator (version recorded, no Migrator table) has its steps recorded as done first. */
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

/**
 * Every transaction here writes. Begun IMMEDIATE, it waits (busy_timeout) for another process's write;
 * begun deferred, it would fail at its first write (SQLITE_BUSY_SNAPSHOT) if one came after its first read.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  createDriver() {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}

export async function openDatabase(dataDir: string): Promise<SqliteDatabase> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new BetterSqlite3(join(dataDir, "site.db"));
  const db = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  const close = async () => {
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
  return { dialect: "sqlite", db, sqlite, close };
}

/** Every value we store is far below 2^53. */
const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 && format !== "binary"
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

type Log = (message: string, error?: unknown) => void;

export async function openPostgres(url: string, log: Log = console.error): Promise<PostgresDatabase> {
  const pool = new pg.Pool({ connectionString: url, types: postgresTypes, connectionTimeoutMillis: 10_000 });
  // Without a listener, an idle connection breaking (a server restart) would end the process.
  pool.on("error", (error) => log("PostgreSQL: an idle connection failed", error));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { dialect: "postgres", db, close: () => db.destroy() };
}

export function connectDatabase(config: { dataDir: string; databaseUrl?: string | undefined }, log?: Log) {
  return config.databaseUrl ? openPostgres(config.databaseUrl, log) : openDatabase(config.dataDir);
}

/** Kysely has no public way to ask: the executor's adapter is shared by every transaction of an instance. */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
