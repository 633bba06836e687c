/**
 * What only PostgreSQL has to prove: its migrations (once, under a lock, for instances
 * starting together), its constraints, claims that skip the rows another instance holds, newsletter
 * deliveries and the rate limit shared by two instances. Each test on a fresh database of the real
 * server of tests/support/postgres.ts.
 */
import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, expect, test } from "vitest";
import { MESSAGES } from "../../rules/forms.ts";
import type { Config } from "../../services/config.ts";
import { sendMessage } from "../../services/contact/send.ts";
import { type Database, openPostgres, SCHEMA_VERSION } from "../../services/db/database.ts";
import { createDatabaseRateLimiter } from "../../services/forms/rate-limit.ts";
import { createOutbox, messageIdDomainOf } from "../../services/mail/outbox.ts";
import { createMailer } from "../../services/mail/transport.ts";
import { signUp } from "../../services/newsletter/sign-up.ts";
import { subscribe } from "../../services/newsletter/subscriptions.ts";
import { createNewsletterWorker, freezeSend } from "../../services/newsletter/worker.ts";
import {
  collectLog,
  databaseConfig,
  FAST_OUTBOX,
  makeTempDir,
  SENDER,
  SITE_URL,
  type SmtpRecorder,
  startSmtp,
  startTestBackend,
  TEST_SECRET,
} from "./helpers.ts";

let temp: ReturnType<typeof makeTempDir>;
let config: Config;
let url: string;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeEach(async () => {
  temp = makeTempDir();
  config = await databaseConfig(temp.path);
  url = config.databaseUrl as string;
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  temp.remove();
});

async function open(): Promise<Database> {
  const database = await openPostgres(url);
  cleanups.push(() => database.close());
  return database;
}

async function smtpServer(options?: Parameters<typeof startSmtp>[0]): Promise<SmtpRecorder> {
  const smtp = await startSmtp(options);
  cleanups.push(() => smtp.stop());
  return smtp;
}

const schemaVersion = async (database: Database) =>
  (await sql<{ version: number }>`SELECT version FROM schema_version`.execute(database.db)).rows[0]?.version;

test("opening a new PostgreSQL database applies every migration once; reopening changes nothing", async () => {
  const first = await open();
  expect(first.dialect).toBe("postgres");
  expect(await schemaVersion(first)).toBe(SCHEMA_VERSION);
  await subscribe(first.db, "kept@example.com");
  await first.close();
  const second = await open();
  expect(await schemaVersion(second)).toBe(SCHEMA_VERSION);
  expect(await second.db.selectFrom("subscribers").select("email").execute()).toEqual([{ email: "kept@example.com" }]);
  const tables = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`.execute(
    second.db,
  );
  expect(tables.rows.map((row) => row.table_name)).toEqual([
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
    "schema_version",
    "subscribers",
    "webmention_sends",
    "webmentions",
  ]);
});

test("six instances starting together on a new database: the lock lets each migration run once", async () => {
  const databases = await Promise.all(Array.from({ length: 6 }, () => open()));
  for (const database of databases) expect(await schemaVersion(database)).toBe(SCHEMA_VERSION);
  // A migration applied twice would have inserted the pacing row twice (or failed on it).
  expect(await databases[0]?.db.selectFrom("newsletter_pacing").selectAll().execute()).toEqual([
    { id: 1, next_slot_at: 0 },
  ]);
});

test("a PostgreSQL database from a newer version of the code is refused", async () => {
  const database = await open();
  await sql`UPDATE schema_version SET version = ${SCHEMA_VERSION + 1}`.execute(database.db);
  await expect(openPostgres(url)).rejects.toThrow(/newer than this code knows/);
});

test("a server that cannot be reached is a clear error, not a hang", async () => {
  const unreachable = new URL(url);
  unreachable.port = "1";
  await expect(openPostgres(unreachable.toString())).rejects.toThrow(/ECONNREFUSED/);
});

test("the UNIQUE index on email_lower and the CHECK on statuses are enforced by PostgreSQL itself", async () => {
  const database = await open();
  const insert = (email: string) =>
    sql`INSERT INTO subscribers (email, email_lower, created_at) VALUES (${email}, ${email.toLowerCase()}, '2025-06-06T00:00:00Z')`.execute(
      database.db,
    );
  await insert("A@b.co");
  await expect(insert("a@B.co")).rejects.toThrow(/duplicate key value violates unique constraint/);
  await expect(
    sql`INSERT INTO messages (message_id, email, subject, body, created_at, status, next_attempt_at)
        VALUES ('<x@y>', 'a@b.co', 's', 'b', 'now', 'lost', 0)`.execute(database.db),
  ).rejects.toThrow(/violates check constraint "messages_status_check"/);
});

test("40 sign-ups of one email over two instances: 'created' once, 'pending' 39 times", async () => {
  const [a, b] = [await open(), await open()];
  const outcomes = await Promise.all(
    Array.from({ length: 40 }, (_, index) =>
      subscribe(index % 2 ? a.db : b.db, index % 3 ? " Same@Example.com " : "same@example.COM"),
    ),
  );
  expect(outcomes.filter(({ outcome }) => outcome === "created")).toHaveLength(1);
  expect(outcomes.filter(({ outcome }) => outcome === "pending")).toHaveLength(39);
});

test("a claim passes over the row another instance holds locked (SKIP LOCKED) instead of waiting or coming back empty", async () => {
  const smtp = await smtpServer();
  const database = await open();
  const { log } = collectLog();
  const mailer = createMailer({ ...config, smtpUrl: smtp.url });
  cleanups.push(() => mailer.close());
  const outbox = createOutbox(database.db, mailer, { ...FAST_OUTBOX, log, messageIdDomain: messageIdDomainOf(SENDER) });
  const letter = { email: "visitor@example.org", body: "Hello" };
  const held = await outbox.enqueue({ ...letter, subject: "Held by the other instance" });
  await outbox.enqueue({ ...letter, subject: "Free" });

  // Another instance in the middle of its claim: its transaction holds the oldest row's lock.
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  cleanups.push(() => other.end());
  await other.query("BEGIN");
  await other.query("SELECT id FROM messages WHERE id = $1 FOR UPDATE", [held.id]);

  expect(await outbox.deliverDue()).toBe(1);
  expect(smtp.received.map((mail) => mail.parsed.subject)).toEqual(["Free"]);
  await other.query("ROLLBACK");
  expect(await outbox.deliverDue()).toBe(1);
  expect(smtp.received.map((mail) => mail.parsed.subject)).toEqual(["Free", "Held by the other instance"]);
});

test("a newsletter send of 300 recipients delivered by three instances at once: each recipient exactly once", async () => {
  const smtp = await smtpServer();
  const instances = [await open(), await open(), await open()];
  const first = instances[0] as Database;
  for (let index = 0; index < 300; index++) {
    await first.db
      .insertInto("subscribers")
      .values({
        email: `reader${index}@example.com`,
        email_lower: `reader${index}@example.com`,
        created_at: new Date().toISOString(),
        status: "confirmed",
      })
      .execute();
  }
  const issue = {
    slug: "first-issue",
    subject: "First issue",
    bodyHtml: "<p>Hello</p>",
    bodyText: "Hello",
    issueUrl: `${SITE_URL}/updates/first-issue`,
    siteName: "Site",
  };
  const { recipients } = await freezeSend(first.db, issue, { messageIdDomain: "example.com" });
  expect(recipients).toBe(300);
  const { log } = collectLog();
  const counts = await Promise.all(
    instances.map((instance) => {
      const mailer = createMailer({ ...config, smtpUrl: smtp.url }, { pool: true });
      cleanups.push(() => mailer.close());
      const worker = createNewsletterWorker(instance.db, mailer, {
        secretKey: TEST_SECRET,
        siteUrl: SITE_URL,
        rate: 0,
        batch: 10,
        log,
      });
      return worker.deliverDue();
    }),
  );
  expect(counts.reduce((sum, count) => sum + count, 0)).toBe(300);
  expect(counts.filter((count) => count > 0).length).toBeGreaterThan(1);
  const recipientsReached = smtp.received.map((mail) => mail.envelope.to.join(","));
  expect(new Set(recipientsReached).size).toBe(300);
  expect(recipientsReached).toHaveLength(300);
  const rows = await first.db.selectFrom("newsletter_deliveries").select(["status", "attempts"]).execute();
  expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
});

test("the rate limit holds across instances: 40 submissions at once from one address over two instances, exactly 5 allowed", async () => {
  const [a, b] = [await open(), await open()];
  const limiters = [createDatabaseRateLimiter(a.db, { limit: 5 }), createDatabaseRateLimiter(b.db, { limit: 5 })];
  const decisions = await Promise.all(
    Array.from({ length: 40 }, (_, index) => (limiters[index % 2] as (typeof limiters)[number]).hit("user 192.0.2.7")),
  );
  expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
  expect(await a.db.selectFrom("rate_limit_hits").selectAll().execute()).toHaveLength(5);
  expect((await limiters[0]?.hit("user 192.0.2.8"))?.allowed).toBe(true);
});

test("with the shared rate limit's table unreadable, both forms answer 500 with their own message, never a stack", async () => {
  const backend = await startTestBackend({ ...config, rateLimit: 5 }, { startOutbox: false });
  cleanups.push(() => backend.close());
  await sql`ALTER TABLE rate_limit_hits RENAME TO rate_limit_hits_lost`.execute(backend.database.db);
  expect(await signUp(backend, { email: "reader@example.com" }, "192.0.2.1")).toEqual({
    ok: false,
    status: 500,
    error: MESSAGES.serverError,
  });
  expect(await sendMessage(backend, { email: "a@b.co", subject: "Hi", body: "Text" }, "192.0.2.1")).toEqual({
    ok: false,
    status: 500,
    error: MESSAGES.sendFailed,
  });
  expect(backend.logs.join("\n")).toMatch(/the rate limit could not be checked.*rate_limit_hits/);
});
