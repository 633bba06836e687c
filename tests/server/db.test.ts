/**
 * The database file: created with its folder, WAL, busy timeout, foreign keys, versioned
 * migrations applied once, and the uniqueness of subscribers enforced by SQLite itself.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, expect, test } from "vitest";
import { migrate, openDatabase, SCHEMA_VERSION } from "../../services/db/database.ts";
import { subscribe } from "../../services/newsletter/subscriptions.ts";
import { makeTempDir } from "./helpers.ts";

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.remove());

test("opening creates DATA_DIR/site.db with WAL, a busy timeout and foreign keys", async () => {
  const dataDir = join(temp.path, "nested", "data");
  const database = await openDatabase(dataDir);
  expect(existsSync(join(dataDir, "site.db"))).toBe(true);
  expect(database.sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
  expect(database.sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
  expect(database.sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
  expect(database.sqlite.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
  await database.close();
  await database.close();
});

test("migrations are applied once: reopening and migrating again change nothing", async () => {
  const first = await openDatabase(temp.path);
  await subscribe(first.db, "kept@example.com");
  await first.close();
  const second = await openDatabase(temp.path);
  expect(await migrate(second.db)).toBe(SCHEMA_VERSION);
  expect(second.sqlite.prepare("SELECT email FROM subscribers").all()).toEqual([{ email: "kept@example.com" }]);
  const tables = second.sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => (row as { name: string }).name);
  expect(tables).toEqual([
    "federation_kv",
    "federation_queue",
    "fediverse_followers",
    "fediverse_posts",
    "kysely_migration",
    "kysely_migration_lock",
    "mail_reports",
    "messages",
    "newsletter_deliveries",
    "newsletter_pacing",
    "newsletter_sends",
    "rate_limit_hits",
    "replies",
    "reply_blocks",
    "subscribers",
    "webmention_sends",
    "webmentions",
  ]);
  await second.close();
});

test("two connections opening a new file at once both end up on the current schema", async () => {
  const a = await openDatabase(temp.path);
  const b = await openDatabase(temp.path);
  expect(a.sqlite.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
  expect(b.sqlite.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
  await a.close();
  await b.close();
});

test("a database from a newer version of the code is refused", async () => {
  const path = join(temp.path, "site.db");
  const raw = new BetterSqlite3(path);
  raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  raw.close();
  await expect(openDatabase(temp.path)).rejects.toThrow(/newer than this code knows/);
});

test("the UNIQUE index on email_lower is enforced by SQLite itself", async () => {
  const database = await openDatabase(temp.path);
  const insert = database.sqlite.prepare(
    "INSERT INTO subscribers (email, email_lower, created_at) VALUES (?, ?, '2025-06-06T00:00:00Z')",
  );
  insert.run("A@b.co", "a@b.co");
  expect(() => insert.run("a@B.co", "a@b.co")).toThrow(/UNIQUE constraint failed/);
  expect(() =>
    database.sqlite
      .prepare(
        "INSERT INTO messages (message_id, email, subject, body, created_at, status, next_attempt_at) VALUES ('<x@y>', 'a@b.co', 's', 'b', 'now', 'lost', 0)",
      )
      .run(),
  ).toThrow(/CHECK constraint failed/);
  await database.close();
});

test("subscribe: 'created' once, then 'pending' (no second confirmation) for any letter case, also across two connections; 'exists' once confirmed", async () => {
  const a = await openDatabase(temp.path);
  const b = await openDatabase(temp.path);
  const outcomes = await Promise.all(
    Array.from({ length: 40 }, (_, index) =>
      subscribe(index % 2 ? a.db : b.db, index % 3 ? " Same@Example.com " : "same@example.COM"),
    ),
  );
  expect(outcomes.filter(({ outcome }) => outcome === "created")).toHaveLength(1);
  expect(outcomes.filter(({ outcome }) => outcome === "pending")).toHaveLength(39);
  expect(a.sqlite.prepare("SELECT email_lower FROM subscribers").all()).toEqual([{ email_lower: "same@example.com" }]);
  a.sqlite.prepare("UPDATE subscribers SET status = 'confirmed'").run();
  expect(await subscribe(b.db, "SAME@example.com")).toEqual({ outcome: "exists" });
  await a.close();
  await b.close();
});

test("a database made by the first schema keeps its messages when migrated to dead letters", async () => {
  const path = join(temp.path, "site.db");
  const raw = new BetterSqlite3(path);
  raw.exec(`
    CREATE TABLE messages (
      id INTEGER PRIMARY KEY, message_id TEXT NOT NULL UNIQUE, email TEXT NOT NULL, subject TEXT NOT NULL,
      body TEXT NOT NULL, created_at TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent')),
      attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL, claim_token TEXT, last_error TEXT,
      sent_at TEXT
    ) STRICT;
    CREATE TABLE subscribers (id INTEGER PRIMARY KEY, email TEXT NOT NULL, email_lower TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL) STRICT;
    INSERT INTO messages (message_id, email, subject, body, created_at, next_attempt_at)
      VALUES ('<a@localhost>', 'visitor@example.org', 'Hi', 'Hello', '2026-01-01T00:00:00.000Z', 0);
  `);
  raw.pragma("user_version = 1");
  raw.close();
  const database = await openDatabase(temp.path);
  try {
    expect(database.sqlite.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(database.sqlite.prepare("SELECT message_id, status FROM messages").all()).toEqual([
      { message_id: "<a@localhost>", status: "pending" },
    ]);
    database.sqlite.prepare("UPDATE messages SET status = 'failed'").run();
    expect(() => database.sqlite.prepare("UPDATE messages SET status = 'lost'").run()).toThrow(/CHECK/);
  } finally {
    await database.close();
  }
});
