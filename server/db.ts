/**
 * The site's SQLite database (DESIGN §3): `${dataDir}/site.db`, holding the subscribers and the
 * contact messages (the outbox). Opening it creates the folder, sets WAL mode, a busy timeout and
 * foreign keys, and applies the migrations that the file has not seen yet (PRAGMA user_version),
 * each in its own transaction, so opening twice or from two processes is harmless.
 * Queries go through Kysely, typed by the `Tables` below.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { type Generated, Kysely, SqliteDialect } from "kysely";

export type SubscribersTable = {
  id: Generated<number>;
  /** As entered, trimmed. */
  email: string;
  /** The uniqueness key: trimmed, NFC, lower case; UNIQUE in the database. */
  email_lower: string;
  /** ISO 8601 instant. */
  created_at: string;
};

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

export type Tables = {
  subscribers: SubscribersTable;
  messages: MessagesTable;
};

export type Db = Kysely<Tables>;

/** Each entry moves the schema from version index to index + 1. Never edit one that shipped. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE subscribers (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    email_lower TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  ) STRICT;

  CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    claim_token TEXT,
    last_error TEXT,
    sent_at TEXT
  ) STRICT;

  CREATE INDEX messages_due ON messages (next_attempt_at, id) WHERE status = 'pending';
  `,
  // Dead letters: SQLite cannot alter a CHECK constraint, so the table is rebuilt with 'failed'.
  `
  CREATE TABLE messages_new (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    claim_token TEXT,
    last_error TEXT,
    sent_at TEXT
  ) STRICT;
  INSERT INTO messages_new SELECT * FROM messages;
  DROP TABLE messages;
  ALTER TABLE messages_new RENAME TO messages;
  CREATE INDEX messages_due ON messages (next_attempt_at, id) WHERE status = 'pending';
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export type Database = {
  db: Db;
  /** The underlying connection, for PRAGMAs and tests. */
  sqlite: BetterSqlite3.Database;
  path: string;
  close(): Promise<void>;
};

/** Applies the pending migrations; returns the schema version reached. */
export function migrate(sqlite: BetterSqlite3.Database): number {
  const current = () => sqlite.pragma("user_version", { simple: true }) as number;
  if (current() > MIGRATIONS.length) {
    throw new Error(
      `The database has schema version ${current()}, newer than this code knows (${MIGRATIONS.length}): refusing to use it.`,
    );
  }
  for (let version = current(); version < MIGRATIONS.length; version++) {
    // IMMEDIATE takes the write lock first, so two processes cannot apply the same step twice:
    // the second one waits (busy_timeout), then sees the new version and skips it.
    sqlite
      .transaction(() => {
        if (current() !== version) return;
        sqlite.exec(MIGRATIONS[version] as string);
        sqlite.pragma(`user_version = ${version + 1}`);
      })
      .immediate();
  }
  return current();
}

export function openDatabase(dataDir: string): Database {
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
