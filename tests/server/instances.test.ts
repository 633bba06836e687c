/**
 * Many instances, proven: two real server processes (tests/server/fixtures/
 * backend-process.ts) on one real PostgreSQL database, each with its own DATA_DIR, behind no proxy:
 * the test spreads the requests over both. Sign-ups end as exactly one row each; contact messages
 * and the recipients of a newsletter send of 2,000 are each mailed exactly once, even when one
 * instance is killed with SIGKILL in the middle of an SMTP transaction: the survivor takes that
 * message (and the rest of the dead one's claimed batch) over once the lease runs out.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, expect, test } from "vitest";
import type { Config } from "../../services/config.ts";
import type { Database } from "../../services/db/database.ts";
import { freezeSend } from "../../services/newsletter/worker.ts";
import { listeningUrl, spawnBackend } from "./backend-process.ts";
import {
  databaseConfig,
  makeTempDir,
  OWNER,
  openTestDatabase,
  postJson,
  SITE_URL,
  type SmtpRecorder,
  startSmtp,
  TEST_SECRET,
  waitFor,
} from "./helpers.ts";

const LEASE_MS = 1000;

let temp: ReturnType<typeof makeTempDir>;
let config: Config;
let database: Database;
const children: ChildProcess[] = [];
const smtpServers: SmtpRecorder[] = [];

beforeEach(async () => {
  temp = makeTempDir();
  config = await databaseConfig(temp.path);
  database = await openTestDatabase(config);
});

afterEach(async () => {
  // SIGTERM lets an instance finish its SMTP transaction before the SMTP server goes away.
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }),
  );
  for (const smtp of smtpServers.splice(0)) await smtp.stop();
  await database.close();
  temp.remove();
});

async function smtpServer(options?: Parameters<typeof startSmtp>[0]) {
  const smtp = await startSmtp(options);
  smtpServers.push(smtp);
  return smtp;
}

type Instance = { name: string; process: ChildProcess; url: string; exited: Promise<unknown> };

/** One app instance: its own process and DATA_DIR, the shared DATABASE_URL and SECRET_KEY. */
async function startInstance(name: string, smtp: SmtpRecorder, env: Record<string, string> = {}): Promise<Instance> {
  const dataDir = join(temp.path, name);
  mkdirSync(dataDir);
  const backend = spawnBackend({
    DATA_DIR: dataDir,
    DATABASE_URL: config.databaseUrl as string,
    SECRET_KEY: TEST_SECRET,
    SMTP_URL: smtp.url,
    OWNER_EMAIL: OWNER,
    RATE_LIMIT: "0",
    OUTBOX_BASE_DELAY_MS: "50",
    OUTBOX_MAX_DELAY_MS: "200",
    OUTBOX_LEASE_MS: String(LEASE_MS),
    OUTBOX_POLL_MS: "100",
    ...env,
  });
  children.push(backend.process);
  return { name, process: backend.process, url: await listeningUrl(backend), exited: backend.exited };
}

/** Runs `count` tasks, `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, task: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const countWhere = async (table: "subscribers" | "messages", status?: "sent") => {
  let query = database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("count"));
  if (status) query = query.where("status", "=", status);
  return Number((await query.executeTakeFirstOrThrow()).count);
};

test("1,000 sign-ups spread over two instances on one PostgreSQL end as 1,000 subscribers with one confirmation each", async () => {
  const smtp = await smtpServer();
  const instances = [await startInstance("a", smtp), await startInstance("b", smtp)];
  const statuses: number[] = [];
  await inParallel(1000, 20, async (index) => {
    const instance = instances[index % 2] as Instance;
    const answer = await postJson(`${instance.url}/api/user`, { email: `reader${index}@example.com` });
    statuses.push(answer.status);
  });
  expect(statuses.filter((status) => status === 201)).toHaveLength(1000);
  expect(await countWhere("subscribers")).toBe(1000);
  // Delivery by both instances is the next test's; here, one confirmation queued per sign-up.
  const confirmations = await database.db
    .selectFrom("messages")
    .select("email")
    .where("kind", "=", "confirmation")
    .execute();
  expect(confirmations).toHaveLength(1000);
  expect(new Set(confirmations.map((row) => row.email)).size).toBe(1000);
}, 120_000);

test("300 contact messages over two instances, one killed with SIGKILL mid-delivery: each delivered exactly once, the survivor takes over its row after the lease", async () => {
  // Each instance has its own SMTP server, so the test knows which one is stuck: the doomed
  // instance's server never answers its 31st message (the SMTP transaction stays open).
  const doomedSmtp = await smtpServer({ holdAfter: 30 });
  const survivorSmtp = await smtpServer({ acceptDelayMs: 5 });
  const doomed = await startInstance("doomed", doomedSmtp);
  const survivor = await startInstance("survivor", survivorSmtp);
  await inParallel(300, 10, async (index) => {
    const instance = index % 2 ? survivor : doomed;
    const answer = await postJson(`${instance.url}/api/email`, {
      email: `visitor${index}@example.org`,
      subject: `Message ${index}`,
      body: "Hello",
    });
    expect(answer.status).toBe(202);
  });
  // Its 31st message is claimed and inside its SMTP transaction: the kill lands there.
  await waitFor(() => doomedSmtp.holding(), { timeoutMs: 30_000, what: "the doomed instance's 31st mail" });
  doomed.process.kill("SIGKILL");
  const killedAt = Date.now();
  await doomed.exited;

  await waitFor(async () => (await countWhere("messages", "sent")) === 300, {
    timeoutMs: 60_000,
    what: "all 300 messages sent",
  });
  const received = [...doomedSmtp.received, ...survivorSmtp.received].map((mail) => mail.parsed.messageId);
  expect(received).toHaveLength(300);
  expect(new Set(received).size).toBe(300);
  expect(doomedSmtp.received).toHaveLength(30);
  // The one message the dead instance held went out once, from the survivor, with its Message-ID.
  const takenOver = await database.db
    .selectFrom("messages")
    .select(["message_id", "attempts", "sent_at"])
    .where("attempts", ">", 1)
    .execute();
  expect(takenOver).toHaveLength(1);
  for (const row of takenOver) {
    expect(survivorSmtp.received.map((mail) => mail.parsed.messageId)).toContain(row.message_id);
    expect(Date.parse(row.sent_at as string)).toBeGreaterThanOrEqual(killedAt);
  }
}, 120_000);

test("a newsletter send of 2,000 over two instances, one killed with SIGKILL mid-delivery: every recipient mailed exactly once", async () => {
  await sql`
    INSERT INTO subscribers (email, email_lower, created_at, status, confirmed_at)
    SELECT 'reader' || n || '@example.com', 'reader' || n || '@example.com', '2026-01-01T00:00:00.000Z', 'confirmed', '2026-01-01T00:00:00.000Z'
    FROM generate_series(1, 2000) AS n`.execute(database.db);
  // Batches of 20: the doomed instance's 111th mail is held in the middle of its sixth batch,
  // whose other 19 rows it claimed too.
  const doomedSmtp = await smtpServer({ holdAfter: 110 });
  const survivorSmtp = await smtpServer();
  const unlimited = { NEWSLETTER_RATE: "unlimited", NEWSLETTER_BATCH: "20" };
  const doomed = await startInstance("doomed", doomedSmtp, unlimited);
  const survivor = await startInstance("survivor", survivorSmtp, unlimited);
  const { recipients } = await freezeSend(
    database.db,
    {
      slug: "launch",
      subject: "Launch day",
      bodyHtml: "<p>Hello</p>",
      bodyText: "Hello",
      issueUrl: `${SITE_URL}/updates/launch`,
      siteName: "Site",
    },
    { messageIdDomain: "example.com" },
  );
  expect(recipients).toBe(2000);
  await waitFor(() => doomedSmtp.holding(), { timeoutMs: 60_000, what: "the doomed instance's 111th mail" });
  doomed.process.kill("SIGKILL");
  await doomed.exited;

  const sentCount = async () =>
    Number(
      (
        await database.db
          .selectFrom("newsletter_deliveries")
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .where("status", "=", "sent")
          .executeTakeFirstOrThrow()
      ).count,
    );
  await waitFor(async () => (await sentCount()) === 2000, { timeoutMs: 90_000, what: "2,000 deliveries sent" });
  expect(survivor.process.exitCode).toBeNull();
  const reached = [...doomedSmtp.received, ...survivorSmtp.received].map((mail) => mail.envelope.to.join(","));
  expect(reached).toHaveLength(2000);
  expect(new Set(reached).size).toBe(2000);
  expect(doomedSmtp.received).toHaveLength(110);
  // The rest of the dead instance's batch (the held delivery and the 9 after it) was claimed
  // twice and sent once, by the survivor.
  const retaken = await database.db
    .selectFrom("newsletter_deliveries")
    .select("message_id")
    .where("attempts", "=", 2)
    .execute();
  expect(retaken).toHaveLength(10);
  const survivorIds = new Set(survivorSmtp.received.map((mail) => mail.parsed.messageId));
  for (const row of retaken) expect(survivorIds.has(row.message_id)).toBe(true);
}, 180_000);
