/**
 * `npm run messages` as the owner runs it, on a real database in a temporary DATA_DIR: a message
 * refused with 554 is listed as failed with the reason, retried, and then delivered.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, test } from "vitest";
import {
  makeTempDir,
  postJson,
  type SmtpRecorder,
  serveApp,
  startSmtp,
  startTestBackend,
  testConfig,
  waitFor,
} from "./helpers.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;

beforeEach(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
});

afterEach(async () => {
  await smtp.stop();
  temp.remove();
});

function messages(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/messages.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: temp.path },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("the owner lists a refused message as failed with its reason, retries it, and it is delivered", async () => {
  smtp.failNext(1, 554);
  const backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url }));
  const served = await serveApp(backend.api);
  try {
    const letter = { email: "visitor@example.org", subject: "Dead letter", body: "Hello!" };
    expect((await postJson(`${served.url}/api/email`, letter)).status).toBe(202);
    const status = async () =>
      (await backend.database.db.selectFrom("messages").select("status").executeTakeFirst())?.status;
    await waitFor(async () => (await status()) === "failed", { what: "the dead letter" });

    const listed = messages("list", "--status", "failed");
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/#1 {2}failed .*visitor@example\.org {2}"Dead letter"/);
    expect(listed.stdout).toContain("Message refused");
    expect(messages("list", "--status", "sent").stdout).toContain("No sent messages.");

    const retried = messages("retry", "--all-failed");
    expect(retried).toMatchObject({ status: 0 });
    expect(retried.stdout).toContain("Queued again: #1.");
    await waitFor(() => smtp.received.length === 1, { what: "delivery after the retry" });
    expect(smtp.received[0]?.parsed.subject).toBe("Dead letter");
    await waitFor(async () => (await status()) === "sent", { what: "the row to be marked sent" });

    const again = messages("retry", "1");
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("Not failed (or no such message): #1.");
  } finally {
    await served.close();
    await backend.close();
  }
});

test("`messages` explains itself and refuses unknown commands and bad ids with its usage", () => {
  const help = messages("--help");
  expect(help.status).toBe(0);
  expect(help.stdout).toContain("retry --all-failed");
  for (const bad of [["send"], ["retry"], ["retry", "x1"], ["list", "--status", "lost"]]) {
    const result = messages(...bad);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Usage: npm run messages");
  }
});

test("the list prints a visitor's subject without the bidirectional controls that would reorder it", async () => {
  const backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url }));
  const served = await serveApp(backend.api);
  try {
    const letter = { email: "visitor@example.org", subject: "Invoice \u202efdp.exe\u202c due", body: "Hello!" };
    expect((await postJson(`${served.url}/api/email`, letter)).status).toBe(202);
  } finally {
    await served.close();
    await backend.close();
  }
  const list = messages("list");
  expect(list.status).toBe(0);
  expect(list.stdout).toContain('visitor@example.org  "Invoice fdp.exe due"');
  expect(list.stdout).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
});
