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

export type Tables = {
  subscribers: SubscribersTable;
  messages: MessagesTable;
  newsletter_sends: NewsletterSendsTable;
  newsletter_deliveries: NewsletterDeliveriesTable;
  newsletter_pacing: NewsletterPacingTable;
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
  // The newsletter (issue 13). Subscribers of the single opt-in era asked for updates and were
  // told they would get them, so they stay on the list as confirmed.
  `
  ALTER TABLE subscribers ADD COLUMN status TEXT NOT NULL DEFAULT 'confirmed'
    CHECK (status IN ('pending', 'confirmed', 'unsubscribed', 'bounced'));
  ALTER TABLE subscribers ADD COLUMN client_ip TEXT;
  ALTER TABLE subscribers ADD COLUMN confirmed_at TEXT;
  ALTER TABLE subscribers ADD COLUMN unsubscribed_at TEXT;
  ALTER TABLE subscribers ADD COLUMN confirmation_sent_at TEXT;
  UPDATE subscribers SET confirmed_at = created_at;

  ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'contact' CHECK (kind IN ('contact', 'confirmation'));

  CREATE TABLE newsletter_sends (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL,
    subject TEXT NOT NULL,
    body_html TEXT NOT NULL,
    body_text TEXT NOT NULL,
    issue_url TEXT NOT NULL,
    site_name TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT;

  CREATE TABLE newsletter_deliveries (
    id INTEGER PRIMARY KEY,
    send_id INTEGER NOT NULL REFERENCES newsletter_sends (id) ON DELETE CASCADE,
    subscriber_id INTEGER NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
    message_id TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'bounced', 'skipped')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    claim_token TEXT,
    last_error TEXT,
    sent_at TEXT,
    UNIQUE (send_id, subscriber_id)
  ) STRICT;
  CREATE INDEX newsletter_deliveries_due ON newsletter_deliveries (next_attempt_at, id) WHERE status = 'pending';
  CREATE INDEX newsletter_deliveries_subscriber ON newsletter_deliveries (subscriber_id);

  CREATE TABLE newsletter_pacing (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    next_slot_at INTEGER NOT NULL
  ) STRICT;
  INSERT INTO newsletter_pacing (id, next_slot_at) VALUES (1, 0);
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
