/**
 * What the owner sees of a send's deliverability, and the send pausing itself above the complaint
 * and hard-bounce lines: the newsletter goes through the real SMTP sink into the project's database,
 * and later reports are applied by the bounce reader's own function.
 */

import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import type { MailReportKind } from "../../services/db/database.ts";
import { applyReport } from "../../services/newsletter/bounces.ts";
import { importSubscribers } from "../../services/newsletter/subscribers.ts";
import { unsubscribe } from "../../services/newsletter/subscriptions.ts";
import { unsubscribeToken } from "../../services/newsletter/tokens.ts";
import { freezeSend, type NewsletterSend, sendFigures, sendProgress } from "../../services/newsletter/worker.ts";
import {
  childProcessEnv,
  makeTempDir,
  SENDER,
  type SmtpRecorder,
  startSmtp,
  startTestBackend,
  TEST_ISSUE,
  TEST_SECRET,
  type TestBackend,
  testConfig,
  waitFor,
} from "./helpers.ts";

const issue = TEST_ISSUE;

const readers = (count: number) => Array.from({ length: count }, (_, index) => `reader${index + 1}@example.org`);

let temp: ReturnType<typeof makeTempDir> | undefined;
let smtp: SmtpRecorder | undefined;
let backend: TestBackend | undefined;

afterEach(async () => {
  await backend?.close();
  await smtp?.stop();
  temp?.remove();
});

/** The backend with `emails` confirmed, and the issue sent to them until done or paused. */
async function sendTo(emails: string[], refused: string[] = []) {
  temp = makeTempDir();
  smtp = await startSmtp({ rejectRecipients: new Map(refused.map((email) => [email, 550])) });
  backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url }), {
    newsletter: { baseDelayMs: 50, maxDelayMs: 400, leaseMs: 2000, pollIntervalMs: 50 },
  });
  const db = backend.database.db;
  expect(await importSubscribers(db, `email\n${emails.join("\n")}\n`)).toMatchObject({ ok: true });
  const { send } = await freezeSend(db, issue, { messageIdDomain: "example.com" });
  backend.newsletter.nudge();
  await waitFor(
    async () => {
      const [progress] = await sendProgress(db, send.id);
      return progress?.pending === 0 || Boolean(progress?.send.paused_at);
    },
    { what: `send #${send.id}` },
  );
  return { db, send };
}

const subscriberOf = (email: string) =>
  (backend as TestBackend).database.db
    .selectFrom("subscribers")
    .select(["id", "email_lower"])
    .where("email", "=", email)
    .executeTakeFirstOrThrow();

/** As the link in the mail's footer does. */
const unsubscribeByLink = async (email: string) =>
  unsubscribe(
    (backend as TestBackend).database.db,
    TEST_SECRET,
    unsubscribeToken(TEST_SECRET, await subscriberOf(email)),
  );

async function report(send: NewsletterSend, email: string, kind: MailReportKind) {
  const db = (backend as TestBackend).database.db;
  const subscriber = await subscriberOf(email);
  const later = { key: `<${randomUUID()}@reports.example.net>`, kind, detail: `${kind} for ${email}`, returnPaths: [] };
  return applyReport(db, later, { send_id: send.id, subscriber_id: subscriber.id }, Date.now());
}

async function pausedReason(sendId: number) {
  const [progress] = await sendProgress((backend as TestBackend).database.db, sendId);
  return progress?.send.pause_reason ?? null;
}

/** `npm run newsletter -- status` on the backend's database, as the owner runs it. */
function statusCommand(): Promise<string> {
  const { databaseUrl, dataDir } = backend?.config ?? {};
  const env = {
    ...childProcessEnv(),
    DATA_DIR: dataDir as string,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    SECRET_KEY: TEST_SECRET,
    MAIL_FROM: SENDER,
  };
  const command = ["--import", "tsx", "scripts/newsletter.ts", "status", "--root", "tests/fixtures"];
  const cwd = fileURLToPath(new URL("../..", import.meta.url));
  return new Promise((done, failed) =>
    execFile(process.execPath, command, { cwd, env }, (error, stdout) => (error ? failed(error) : done(stdout))),
  );
}

describe("a send's figures", () => {
  test("count what the SMTP server refused, later hard and soft bounces, complaints and unsubscribes, each once per subscriber", async () => {
    const emails = readers(30);
    const { db, send } = await sendTo(emails, ["reader1@example.org"]);
    expect(await report(send, "reader2@example.org", "hard")).toBe(true);
    expect(await report(send, "reader3@example.org", "soft")).toBe(true);
    expect(await report(send, "reader3@example.org", "soft")).toBe(true);
    expect(await report(send, "reader4@example.org", "delayed")).toBe(true);
    expect(await report(send, "reader5@example.org", "complaint")).toBe(true);
    expect(await unsubscribeByLink("reader6@example.org")).toBe("unsubscribed");

    expect(await sendFigures(db, send.id)).toMatchObject([
      { sent: 29, bounced: 1, hard: 2, soft: 1, complaints: 1, unsubscribed: 1 },
    ]);
    const status = await statusCommand();
    expect(status).toContain(
      "    29 delivered, bounced 2 hard and 1 soft, 1 complained (3.4%, ABOVE Gmail's 0.3% line), 1 unsubscribed\n",
    );
  });

  test("an unsubscribe counts for the last mail its subscriber got before it, not for the sends before", async () => {
    const { db, send: first } = await sendTo(readers(3));
    const { send: second } = await freezeSend(db, issue, { messageIdDomain: "example.com", again: true });
    backend?.newsletter.nudge();
    await waitFor(async () => (await sendProgress(db, second.id))[0]?.pending === 0, { what: "the second send" });
    await unsubscribeByLink("reader2@example.org");
    const figures = await sendFigures(db);
    expect(figures.map((send) => [send.send.id, send.unsubscribed])).toEqual([
      [first.id, 0],
      [second.id, 1],
    ]);
  });
});

describe("a send pauses itself", () => {
  test("when a later complaint passes 0.3% of what it delivered, with the figures and the way to resume in its reason", async () => {
    const { send } = await sendTo(readers(25));
    expect(await pausedReason(send.id)).toBeNull();
    await report(send, "reader7@example.org", "complaint");
    expect(await pausedReason(send.id)).toBe(
      `complaints from 1 of 25 delivered (4.0%) passed the 0.3% Gmail allows; fix it, then: npm run newsletter -- resume ${send.id}`,
    );
  });

  test("when hard bounces reported later pass 5% of what it delivered, and not at 5% itself", async () => {
    const { send } = await sendTo(readers(40));
    await report(send, "reader1@example.org", "hard");
    await report(send, "reader2@example.org", "hard");
    expect(await pausedReason(send.id)).toBeNull();
    await report(send, "reader3@example.org", "soft");
    expect(await pausedReason(send.id)).toBeNull();
    await report(send, "reader4@example.org", "hard");
    expect(await pausedReason(send.id)).toMatch(/^hard bounces from 3 of 40 delivered \(7\.5%\) passed 5%/);
  });

  test("when refusals at SMTP time pass 5%, judged as its 20th mail is delivered, and stops there", async () => {
    const emails = readers(40);
    const { db, send } = await sendTo(emails, ["reader2@example.org", "reader9@example.org"]);
    expect(await pausedReason(send.id)).toMatch(/^hard bounces from 2 of 20 delivered \(10\.0%\) passed 5%/);
    expect(await sendProgress(db, send.id)).toMatchObject([{ sent: 20, bounced: 2, pending: 18 }]);
    expect(smtp?.received).toHaveLength(20);
  });

  test("not before its 20th delivery, however many complain", async () => {
    const { send } = await sendTo(readers(10));
    await report(send, "reader1@example.org", "complaint");
    await report(send, "reader2@example.org", "complaint");
    expect(await pausedReason(send.id)).toBeNull();
  });
});
