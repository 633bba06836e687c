/**
 * Real processes: a server process is killed with SIGKILL right after it answered 202, a new one
 * on the same DATA_DIR delivers the message, exactly once. And a backend that was closed lets
 * its process end.
 */
import type { ChildProcess } from "node:child_process";
import { afterEach, beforeEach, expect, test } from "vitest";
import { openDatabase } from "../../services/db/database.ts";
import { type BackendProcess, listeningUrl, spawnBackend } from "./backend-process.ts";
import { makeTempDir, OWNER, postJson, type SmtpRecorder, sleep, startSmtp, waitFor } from "./helpers.ts";

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

function startChild(env: Record<string, string>): BackendProcess {
  const child = spawnBackend({
    DATA_DIR: temp.path,
    OWNER_EMAIL: OWNER,
    RATE_LIMIT: "0",
    OUTBOX_BASE_DELAY_MS: "50",
    OUTBOX_MAX_DELAY_MS: "200",
    OUTBOX_LEASE_MS: "600",
    OUTBOX_POLL_MS: "100",
    ...env,
  });
  children.push(child.process);
  return child;
}

async function messageRows() {
  const database = await openDatabase(temp.path);
  try {
    return database.sqlite.prepare("SELECT status, attempts, message_id FROM messages").all() as {
      status: string;
      attempts: number;
      message_id: string;
    }[];
  } finally {
    void database.close();
  }
}

test("a server killed with SIGKILL right after its 202 loses nothing: the next process delivers the message exactly once", async () => {
  // The SMTP server takes 400 ms to say 250, so the kill lands while the first attempt is in
  // flight: that attempt is not accepted, and the claim it left behind must be taken over.
  smtp = await startSmtp({ acceptDelayMs: 400 });
  const first = startChild({ SMTP_URL: smtp.url });
  const url = await listeningUrl(first);

  const answer = await postJson(`${url}/api/email`, {
    email: "visitor@example.org",
    subject: "Crash test",
    body: "Survive this.",
  });
  expect(answer.status).toBe(202);
  first.process.kill("SIGKILL");
  await first.exited;
  expect(smtp.received).toHaveLength(0);

  const [stored] = await messageRows();
  expect(stored?.status).toBe("pending");
  expect(stored?.attempts).toBeLessThanOrEqual(1);

  const second = startChild({ SMTP_URL: smtp.url });
  await listeningUrl(second);
  await waitFor(() => smtp?.received.length, { timeoutMs: 15_000, what: "delivery by the second process" });
  await waitFor(async () => (await messageRows())[0]?.status === "sent", { what: "status sent" });
  await sleep(500);
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]?.parsed.subject).toBe("Crash test");
  expect(smtp.received[0]?.parsed.messageId).toBe(stored?.message_id);
  second.process.kill("SIGTERM");
  await second.exited;
});

test("a worker killed mid-SMTP with the default lease: a restart delivers the message within seconds, same Message-ID", async () => {
  // The SMTP server holds DATA for 2 s, so the kill lands inside the transaction.
  smtp = await startSmtp({ acceptDelayMs: 2000 });
  const lease = { SMTP_URL: smtp.url, OUTBOX_LEASE_MS: "" };
  const first = startChild(lease);
  const url = await listeningUrl(first);
  const answer = await postJson(`${url}/api/email`, {
    email: "visitor@example.org",
    subject: "Killed mid-send",
    body: "Again, please.",
  });
  expect(answer.status).toBe(202);
  await waitFor(async () => (await messageRows())[0]?.attempts === 1, { what: "the first attempt to start" });
  await sleep(300);
  first.process.kill("SIGKILL");
  await first.exited;
  const [stored] = await messageRows();
  expect(stored?.status).toBe("pending");

  const second = startChild(lease);
  await listeningUrl(second);
  // Default lease 15 s: the message comes back within it, not after minutes.
  await waitFor(async () => (await messageRows())[0]?.status === "sent", {
    timeoutMs: 25_000,
    what: "delivery after the restart",
  });
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]?.parsed.messageId).toBe(stored?.message_id);
  second.process.kill("SIGTERM");
  await second.exited;
});

test("after a SIGKILL the next process delivers what is pending (.eml files), and once its backend is closed the process ends by itself", async () => {
  const first = startChild({});
  const url = await listeningUrl(first);
  for (let index = 0; index < 3; index++) {
    const answer = await postJson(`${url}/api/email`, {
      email: "visitor@example.org",
      subject: `Message ${index}`,
      body: "Body",
    });
    expect(answer.status).toBe(202);
  }
  first.process.kill("SIGKILL");
  await first.exited;

  const second = startChild({ EXIT_AFTER_SENT: "1" });
  const code = await Promise.race([second.exited, sleep(15_000).then(() => "still running")]);
  expect(code, second.output()).toBe(0);
  expect(second.output()).toContain("closed");
  const rows = await messageRows();
  expect(rows).toHaveLength(3);
  expect(rows.every((row) => row.status === "sent")).toBe(true);
});
