/**
 * The outbox: delivery through a real SMTP server (headers checked on the parsed mail), retries
 * while the server is down or refuses, exactly-once delivery with two workers on one database,
 * .eml files without SMTP, resume at start, stop waiting for a send in flight.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Backend } from "../../services/backend.ts";
import type { Config } from "../../services/config.ts";
import { createOutbox, messageIdDomainOf } from "../../services/mail/outbox.ts";
import { backoffDelay } from "../../services/mail/queue.ts";
import { createMailer, emlFileName } from "../../services/mail/transport.ts";
import {
  collectLog,
  databaseConfig,
  FAST_OUTBOX,
  makeTempDir,
  OWNER,
  openTestDatabase,
  postJson,
  SENDER,
  type Served,
  type SmtpRecorder,
  serveApp,
  sleep,
  startSmtp,
  startTestBackend,
  waitFor,
} from "./helpers.ts";

type MessageRow = {
  id: number;
  message_id: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  sent_at: string | null;
  claim_token: string | null;
};

const letter = { email: "visitor@example.org", subject: "Question about Sapiens", body: "Hello!\nWhat did you think?" };

let temp: ReturnType<typeof makeTempDir>;
/** The test's database (SQLite in temp, or a fresh PostgreSQL database): every backend of a test shares it. */
let baseConfig: Config;
const cleanups: (() => Promise<void> | void)[] = [];

const configWith = (overrides: Partial<Config>) => ({ ...baseConfig, ...overrides });

beforeEach(async () => {
  temp = makeTempDir();
  baseConfig = await databaseConfig(temp.path);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  temp.remove();
});

async function smtpServer(options?: Parameters<typeof startSmtp>[0]) {
  const smtp = await startSmtp(options);
  cleanups.push(() => smtp.stop());
  return smtp;
}

async function backendWith(smtp: SmtpRecorder | undefined, options: Parameters<typeof startTestBackend>[1] = {}) {
  const backend = await startTestBackend(configWith({ smtpUrl: smtp?.url }), options);
  const served = await serveApp(backend.api);
  cleanups.push(() => backend.close());
  cleanups.push(() => served.close());
  return { backend, served };
}

function rows(backend: Backend): Promise<MessageRow[]> {
  return backend.database.db.selectFrom("messages").selectAll().orderBy("id").execute();
}

function send(served: Served, body: object = letter) {
  return postJson(`${served.url}/api/email`, body);
}

describe("delivery", () => {
  test("the mail goes To the owner, From MAIL_FROM, Reply-To the visitor (in no other header), with subject, body and the stored Message-ID", async () => {
    const smtp = await smtpServer();
    const { backend, served } = await backendWith(smtp);
    expect((await send(served, { ...letter, subject: "Ünïcödé subject — long enough to need encoding?" })).status).toBe(
      202,
    );
    const mail = await waitFor(() => smtp.received[0], { what: "the mail" });
    const [row] = await rows(backend);
    expect(mail.envelope).toEqual({ from: SENDER, to: [OWNER], smtpUtf8: false });
    expect(mail.parsed.to && !Array.isArray(mail.parsed.to) && mail.parsed.to.value.map((a) => a.address)).toEqual([
      OWNER,
    ]);
    expect(mail.parsed.from?.value.map((a) => a.address)).toEqual([SENDER]);
    expect(mail.parsed.replyTo?.value.map((a) => a.address)).toEqual([letter.email]);
    expect(mail.parsed.subject).toBe("Ünïcödé subject — long enough to need encoding?");
    expect(mail.parsed.text).toBe(`${letter.body}\n`);
    expect(mail.parsed.messageId).toBe(row?.message_id);
    expect(row?.message_id).toMatch(/^<[0-9a-f-]{36}@example\.com>$/);
    // The visitor's address appears in Reply-To and in no other header.
    const headerLines = mail.parsed.headerLines.filter((line) => line.line.includes(letter.email));
    expect(headerLines.map((line) => line.key)).toEqual(["reply-to"]);
    await waitFor(async () => (await rows(backend))[0]?.status === "sent", { what: "status sent" });
    expect((await rows(backend))[0]).toMatchObject({
      status: "sent",
      attempts: 1,
      last_error: null,
      claim_token: null,
    });
    expect((await rows(backend))[0]?.sent_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  test("while SMTP is down a message gets 202 and stays pending with growing attempts, and once SMTP is back on the same port it is delivered exactly once", async () => {
    const first = await startSmtp();
    const port = first.port;
    const { backend, served } = await backendWith(first);
    await first.stop();

    const answer = await send(served);
    expect(answer.status).toBe(202);
    await waitFor(async () => ((await rows(backend))[0]?.attempts ?? 0) >= 3, { what: "three failed attempts" });
    const pending = (await rows(backend))[0];
    expect(pending?.status).toBe("pending");
    expect(pending?.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(pending?.sent_at).toBeNull();

    const second = await smtpServer({ port });
    await waitFor(async () => (await rows(backend))[0]?.status === "sent", { what: "delivery after SMTP returns" });
    await sleep(300);
    expect(second.received).toHaveLength(1);
    expect(second.received[0]?.parsed.messageId).toBe(pending?.message_id);
    expect(first.received).toHaveLength(0);
  });

  test("a message refused by SMTP with an error is retried with back-off and delivered once", async () => {
    const smtp = await smtpServer();
    smtp.failNext(2);
    const { backend, served } = await backendWith(smtp);
    expect((await send(served)).status).toBe(202);
    await waitFor(async () => (await rows(backend))[0]?.status === "sent", { what: "delivery after two refusals" });
    await sleep(200);
    expect(smtp.received).toHaveLength(1);
    expect((await rows(backend))[0]).toMatchObject({ attempts: 3, status: "sent" });
    expect(backend.logs.filter((line) => line.includes("failed; next attempt"))).toHaveLength(2);
  });

  test.each([554, 550])(
    "an SMTP %i reply marks the message failed: logged once with the reason, never retried",
    async (code) => {
      const smtp = await smtpServer();
      smtp.failNext(1, code);
      const { backend, served } = await backendWith(smtp);
      expect((await send(served)).status).toBe(202);
      await waitFor(async () => (await rows(backend))[0]?.status === "failed", { what: "the dead letter" });
      await sleep(500);
      expect(smtp.received).toHaveLength(0);
      expect((await rows(backend))[0]).toMatchObject({ attempts: 1, status: "failed", claim_token: null });
      expect((await rows(backend))[0]?.last_error).toContain("Message refused");
      const failedId = (await rows(backend))[0]?.id;
      const logged = backend.logs.filter((line) => line.includes(`message ${failedId} refused`));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain("Message refused");
      // Later messages are not held up by the dead letter.
      expect((await send(served)).status).toBe(202);
      await waitFor(async () => (await rows(backend))[1]?.status === "sent", { what: "the next message's delivery" });
    },
  );

  test("an SMTP server refusing our sender makes no dead letter: messages wait, the log says so once, and each goes out once it accepts", async () => {
    const smtp = await smtpServer();
    smtp.refuseSender(true);
    const { backend, served } = await backendWith(smtp);
    expect((await send(served)).status).toBe(202);
    expect((await send(served)).status).toBe(202);
    await waitFor(async () => (await rows(backend)).every((row) => row.attempts >= 3), {
      what: "several refused attempts",
    });
    expect((await rows(backend)).map((row) => row.status)).toEqual(["pending", "pending"]);
    expect((await rows(backend))[0]?.last_error).toContain("550 5.7.1 sender not allowed");
    const waiting = backend.logs.filter((line) => line.includes("refuses our sender"));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toContain("messages wait");
    expect(backend.logs.filter((line) => line.includes("marked failed"))).toEqual([]);

    smtp.refuseSender(false);
    await waitFor(async () => (await rows(backend)).every((row) => row.status === "sent"), { what: "delivery" });
    await sleep(300);
    expect(smtp.received).toHaveLength(2);
    expect(backend.logs.filter((line) => line.includes("accepts our sender again"))).toHaveLength(1);
  });

  test("delivered messages are deleted after the retention; pending and failed ones stay", async () => {
    const smtp = await smtpServer();
    let clock = Date.parse("2026-01-01T00:00:00Z");
    const { backend, served } = await backendWith(smtp, {
      outbox: { ...FAST_OUTBOX, retentionMs: 90 * 86_400_000, now: () => clock },
    });
    expect((await send(served)).status).toBe(202);
    await waitFor(async () => (await rows(backend))[0]?.status === "sent", { what: "delivery" });
    smtp.failNext(1, 554);
    expect((await send(served)).status).toBe(202);
    await waitFor(async () => (await rows(backend))[1]?.status === "failed", { what: "the dead letter" });
    clock += 89 * 86_400_000;
    expect(await backend.outbox.deleteExpired()).toBe(0);
    clock += 2 * 86_400_000;
    expect(await backend.outbox.deleteExpired()).toBe(1);
    expect((await rows(backend)).map((row) => row.status)).toEqual(["failed"]);
  });

  test("a send that outlasts the lease is not overtaken: the living worker renews its claim", async () => {
    const smtp = await smtpServer({ acceptDelayMs: 1500 });
    const short = { outbox: { ...FAST_OUTBOX, leaseMs: 300 } };
    const { backend, served } = await backendWith(smtp, short);
    const rival = await startTestBackend(configWith({ smtpUrl: smtp.url }), short);
    cleanups.push(() => rival.close());
    expect((await send(served)).status).toBe(202);
    await waitFor(async () => (await rows(backend))[0]?.status === "sent", { what: "the slow delivery" });
    await sleep(500);
    expect(smtp.received).toHaveLength(1);
    expect((await rows(backend))[0]).toMatchObject({ attempts: 1, status: "sent" });
  });

  test("the retry schedule is stored in the database: exponential back-off with a cap", async () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, { baseDelayMs: 1000, maxDelayMs: 300_000 }))).toEqual([
      1000, 2000, 4000, 8000, 16000,
    ]);
    expect(backoffDelay(9, { baseDelayMs: 1000, maxDelayMs: 300_000 })).toBe(256_000);
    expect(backoffDelay(10, { baseDelayMs: 1000, maxDelayMs: 300_000 })).toBe(300_000);
    expect(backoffDelay(1000, { baseDelayMs: 1000, maxDelayMs: 300_000 })).toBe(300_000);

    // A worker with a long base delay: after one failure the next attempt is a minute away, in the row.
    const smtp = await startSmtp();
    await smtp.stop();
    const { backend, served } = await backendWith(smtp, {
      outbox: { ...FAST_OUTBOX, baseDelayMs: 60_000, maxDelayMs: 600_000 },
    });
    const before = Date.now();
    expect((await send(served)).status).toBe(202);
    await waitFor(async () => (await rows(backend))[0]?.last_error, { what: "first failure" });
    const row = (await rows(backend))[0];
    expect(row?.attempts).toBe(1);
    expect(row?.next_attempt_at).toBeGreaterThanOrEqual(before + 60_000);
    expect(row?.next_attempt_at).toBeLessThan(Date.now() + 61_000);
  });

  test("without SMTP_URL the mail is written to DATA_DIR/mail/<message-id>.eml, its text readable in a .txt beside it", async () => {
    const { backend, served } = await backendWith(undefined);
    expect((await send(served)).status).toBe(202);
    await waitFor(async () => (await rows(backend))[0]?.status === "sent", { what: "the .eml file" });
    const [row] = await rows(backend);
    const folder = join(temp.path, "mail");
    const eml = emlFileName(row?.message_id ?? "");
    expect(readdirSync(folder).sort()).toEqual([eml, eml.replace(/\.eml$/, ".txt")]);
    expect(readFileSync(join(folder, eml.replace(/\.eml$/, ".txt")), "utf8")).toBe(
      `To: ${OWNER}\nSubject: ${letter.subject}\n\n${letter.body}`,
    );
    const raw = readFileSync(join(folder, eml));
    expect(raw.toString("latin1")).toContain("\r\n");
    const mail = await simpleParser(raw);
    expect(mail.to && !Array.isArray(mail.to) && mail.to.value.map((a) => a.address)).toEqual([OWNER]);
    expect(mail.from?.value.map((a) => a.address)).toEqual([SENDER]);
    expect(mail.replyTo?.value.map((a) => a.address)).toEqual([letter.email]);
    expect(mail.subject).toBe(letter.subject);
    expect(mail.text).toBe(`${letter.body}\n`);
    expect(mail.messageId).toBe(row?.message_id);
    expect(mail.headerLines.filter((line) => line.line.includes(letter.email)).map((line) => line.key)).toEqual([
      "reply-to",
    ]);
  });
});

describe("worker", () => {
  test("messages left pending are delivered when a worker starts", async () => {
    const smtp = await smtpServer();
    const stopped = await startTestBackend(configWith({ smtpUrl: smtp.url }), { startOutbox: false });
    await stopped.outbox.enqueue(letter);
    await stopped.outbox.enqueue({ ...letter, subject: "Second" });
    await sleep(100);
    expect(smtp.received).toHaveLength(0);
    await stopped.close();

    const { backend } = await backendWith(smtp);
    await waitFor(async () => (await rows(backend)).every((row) => row.status === "sent"), {
      what: "resumed delivery",
    });
    expect(smtp.received.map((mail) => mail.parsed.subject).sort()).toEqual([letter.subject, "Second"].sort());
  });

  test("two workers on one database never send a message twice", async () => {
    const smtp = await smtpServer();
    const config = configWith({ smtpUrl: smtp.url });
    const first = await openTestDatabase(config);
    const second = await openTestDatabase(config);
    cleanups.push(() => first.close());
    cleanups.push(() => second.close());
    const { log } = collectLog();
    const options = { ...FAST_OUTBOX, log, messageIdDomain: messageIdDomainOf(SENDER) };
    const mailerA = createMailer(config);
    const mailerB = createMailer(config);
    const outboxA = createOutbox(first.db, mailerA, options);
    const outboxB = createOutbox(second.db, mailerB, options);
    for (let index = 0; index < 30; index++) await outboxA.enqueue({ ...letter, subject: `Message ${index}` });

    const counts = await Promise.all([
      outboxA.deliverDue(),
      outboxB.deliverDue(),
      outboxA.deliverDue(),
      outboxB.deliverDue(),
    ]);
    mailerA.close();
    mailerB.close();
    const ids = smtp.received.map((mail) => mail.parsed.messageId);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    // Both databases' workers really competed for the rows.
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(30);
    expect(counts[0] + counts[2]).toBeGreaterThan(0);
    expect(counts[1] + counts[3]).toBeGreaterThan(0);
    const statuses = await first.db.selectFrom("messages").select(["status", "attempts"]).execute();
    expect(statuses.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });

  test("stop() waits for the send in flight and records it", async () => {
    const smtp = await smtpServer({ acceptDelayMs: 300 });
    const backend = await startTestBackend(configWith({ smtpUrl: smtp.url }));
    cleanups.push(() => backend.close());
    await backend.outbox.enqueue(letter);
    await waitFor(async () => (await rows(backend))[0]?.attempts === 1, { what: "the claim" });
    expect((await rows(backend))[0]?.status).toBe("pending");
    await backend.outbox.stop();
    expect(backend.outbox.running).toBe(false);
    expect((await rows(backend))[0]?.status).toBe("sent");
    expect(smtp.received).toHaveLength(1);
  });

  test("a stopped worker sends nothing; nudge() on a stopped worker does nothing", async () => {
    const smtp = await smtpServer();
    const backend = await startTestBackend(configWith({ smtpUrl: smtp.url }));
    cleanups.push(() => backend.close());
    await backend.outbox.stop();
    await backend.outbox.enqueue(letter);
    backend.outbox.nudge();
    await sleep(200);
    expect(smtp.received).toHaveLength(0);
    expect((await rows(backend))[0]?.status).toBe("pending");
    backend.outbox.start();
    await waitFor(async () => (await rows(backend))[0]?.status === "sent", { what: "delivery after start" });
  });

  test("a claim held by a dead worker is taken over once its lease runs out", async () => {
    const smtp = await smtpServer();
    const backend = await startTestBackend(configWith({ smtpUrl: smtp.url }), {
      startOutbox: false,
      outbox: { ...FAST_OUTBOX, leaseMs: 300 },
    });
    cleanups.push(() => backend.close());
    await backend.outbox.enqueue(letter);
    // A worker that claimed the row and died before recording anything.
    const claimedAt = Date.now();
    await backend.database.db
      .updateTable("messages")
      .set({ attempts: 1, next_attempt_at: claimedAt + 300, claim_token: "dead-worker" })
      .execute();
    backend.outbox.start();
    await sleep(100);
    expect(smtp.received).toHaveLength(0);
    await waitFor(async () => (await rows(backend))[0]?.status === "sent", { what: "take-over after the lease" });
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(290);
    expect(smtp.received).toHaveLength(1);
    expect((await rows(backend))[0]?.attempts).toBe(2);
  });
});
