/**
 * A newsletter send for real: a send to 2,000 confirmed subscribers, delivered by the server's worker in
 * a child process, is killed with SIGKILL half-way; the next process on the same DATA_DIR delivers
 * the rest, and every recipient gets the issue exactly once, with the Message-ID frozen for them.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { loadCatalogue } from "../../catalogue/disk.ts";
import { openDatabase } from "../../services/db/database.ts";
import { issueToSend } from "../../services/newsletter/issue.ts";
import { importSubscribers } from "../../services/newsletter/subscribers.ts";
import { freezeSend } from "../../services/newsletter/worker.ts";
import { type BackendProcess, spawnBackend } from "./backend-process.ts";
import { makeTempDir, SITE_URL, type SmtpRecorder, sleep, startSmtp, TEST_SECRET, waitFor } from "./helpers.ts";

const RECIPIENTS = 2000;
const KILLED_AFTER = 1000;

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder | undefined;
const children: ChildProcess[] = [];

beforeEach(() => {
  temp = makeTempDir();
});

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await smtp?.stop();
  smtp = undefined;
  temp.remove();
});

function startServerProcess(smtpUrl: string): BackendProcess {
  const child = spawnBackend({
    DATA_DIR: temp.path,
    SMTP_URL: smtpUrl,
    SECRET_KEY: TEST_SECRET,
    NEWSLETTER_RATE: "unlimited",
    OUTBOX_LEASE_MS: "600",
    OUTBOX_POLL_MS: "100",
  });
  children.push(child.process);
  return child;
}

async function deliveryRows() {
  const database = await openDatabase(temp.path);
  try {
    return database.sqlite
      .prepare(
        "SELECT s.email_lower AS email, d.status, d.message_id FROM newsletter_deliveries d JOIN subscribers s ON s.id = d.subscriber_id",
      )
      .all() as { email: string; status: string; message_id: string }[];
  } finally {
    void database.close();
  }
}

test(`a send to ${RECIPIENTS} recipients killed with SIGKILL half-way and resumed by the next process delivers each exactly once`, async () => {
  const fixtures = loadCatalogue(join(import.meta.dirname, "../fixtures"));
  const issue = fixtures.updates.find((candidate) => candidate.slug === "first-issue");
  if (!issue) throw new Error("tests/fixtures/content/updates/first-issue.md is missing");
  const emails = Array.from({ length: RECIPIENTS }, (_, index) => `reader-${index}@example.org`);
  const database = await openDatabase(temp.path);
  expect(await importSubscribers(database.db, `email\n${emails.join("\n")}\n`)).toMatchObject({ added: RECIPIENTS });
  const frozen = await freezeSend(database.db, issueToSend(issue, fixtures.site.name, SITE_URL), {
    messageIdDomain: "example.com",
  });
  expect(frozen.recipients).toBe(RECIPIENTS);
  await database.close();

  // The SMTP server accepts 1,000 mails, then never answers the next one: the kill lands inside
  // that SMTP transaction, so the mail in flight is not accepted, and no 250 can go unrecorded.
  smtp = await startSmtp({ holdAfter: KILLED_AFTER });
  const first = startServerProcess(smtp.url);
  await waitFor(() => smtp?.received.length === KILLED_AFTER, {
    timeoutMs: 180_000,
    what: `the first ${KILLED_AFTER} mails (output: ${first.output()})`,
  });
  await sleep(200);
  first.process.kill("SIGKILL");
  await first.exited;
  expect(smtp.received).toHaveLength(KILLED_AFTER);
  const afterKill = await deliveryRows();
  expect(afterKill.filter((row) => row.status === "sent")).toHaveLength(KILLED_AFTER);

  const second = startServerProcess(smtp.url);
  await waitFor(async () => (await deliveryRows()).every((row) => row.status === "sent"), {
    timeoutMs: 180_000,
    intervalMs: 250,
    what: `the rest of the send (output: ${second.output()})`,
  });
  await sleep(300);
  second.process.kill("SIGTERM");
  await second.exited;

  const received = smtp.received.map((mail) => ({ to: mail.envelope.to.join(","), id: mail.parsed.messageId }));
  expect(received).toHaveLength(RECIPIENTS);
  expect(new Set(received.map((mail) => mail.to)).size).toBe(RECIPIENTS);
  const frozenIds = new Map((await deliveryRows()).map((row) => [row.email, row.message_id]));
  for (const mail of received) expect(mail.id).toBe(frozenIds.get(mail.to));
}, 150_000);
