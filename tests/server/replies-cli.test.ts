/**
 * `npm run replies` as the owner runs it, on the project's database: a held reply mails the owner a
 * summary through the real SMTP sink, is listed, shown, approved or rejected, and a block keeps the
 * sender's later replies back and counts them.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { holdReply, type ReplyDeps } from "../../services/replies/announce.ts";
import type { IncomingReply } from "../../services/replies/store.ts";
import {
  childProcessEnv,
  makeTempDir,
  OWNER,
  type SmtpRecorder,
  startSmtp,
  startTestBackend,
  type TestBackend,
  testConfig,
  waitFor,
} from "./helpers.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let backend: TestBackend;
let deps: ReplyDeps;

beforeEach(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
  backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url }));
  deps = {
    db: backend.database.db,
    outbox: backend.outbox,
    siteUrl: backend.config.siteUrl,
    ownerEmail: backend.config.ownerEmail,
  };
});

afterEach(async () => {
  await backend.close();
  await smtp.stop();
  temp.remove();
});

function replies(...args: string[]) {
  const env: Record<string, string> = { ...childProcessEnv(), DATA_DIR: temp.path };
  if (backend.config.databaseUrl) env.DATABASE_URL = backend.config.databaseUrl;
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/replies.ts", ...args], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const mention = (overrides: Partial<IncomingReply> = {}): IncomingReply => ({
  kind: "webmention",
  target: "/notes/sample-note",
  author: { name: "Sample Reader", url: "https://reader.example/" },
  text: "A sample reply,\nwritten for the tests.",
  sourceUrl: "https://reader.example/replies/1",
  writtenAt: new Date("2026-01-02T10:00:00Z"),
  ...overrides,
});

describe("the owner hears of a reply", () => {
  test("a pending reply mails the owner a summary naming the page and the command that approves it", async () => {
    const { id } = await holdReply(deps, mention());
    await waitFor(() => smtp.received.length === 1, { what: "the summary" });
    const mail = smtp.received[0]?.parsed;
    expect(mail?.to).toMatchObject({ text: OWNER });
    expect(mail?.subject).toBe(`Reply #${id} to /notes/sample-note from Sample Reader`);
    expect(mail?.text).toContain("http://localhost:3000/notes/sample-note");
    expect(mail?.text).toContain(`npm run replies -- approve ${id}`);
    expect(smtp.received[0]?.envelope.to).toEqual([OWNER]);
  });

  test("a form reply waiting for its address mails nobody yet", async () => {
    await holdReply(deps, mention({ kind: "form", author: { name: "A", address: "a@example.com" } }));
    await holdReply(deps, mention());
    await waitFor(() => smtp.received.length === 1, { what: "the one summary" });
    expect(smtp.received[0]?.parsed.subject).toMatch(/^Reply #2 /);
  });
});

describe("moderating from the terminal", () => {
  test("list --json gives each reply's id, kind, status, author, text and target", async () => {
    await holdReply(deps, mention());
    const listed = replies("list", "--json");
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        id: 1,
        kind: "webmention",
        status: "pending",
        author: { name: "Sample Reader", url: "https://reader.example/", address: null },
        text: "A sample reply,\nwritten for the tests.",
        target: "/notes/sample-note",
      },
    ]);
  });

  test("show, approve and reject change the reply, and an unconfirmed one cannot be approved", async () => {
    await holdReply(deps, mention());
    await holdReply(deps, mention({ kind: "form", author: { name: "A", address: "a@example.com" } }));
    expect(replies("show", "1").stdout).toContain("A sample reply,\nwritten for the tests.");
    expect(replies("approve", "1")).toMatchObject({ status: 0, stdout: "Reply #1 approved.\n" });
    expect(replies("reject", "1")).toMatchObject({ status: 0, stdout: "Reply #1 rejected.\n" });
    expect(replies("approve", "2")).toMatchObject({
      status: 1,
      stderr: "Reply #2 is unconfirmed: it cannot be approved.\n",
    });
    expect(replies("approve", "9")).toMatchObject({ status: 1, stderr: "No reply #9.\n" });
    expect(replies("list").stdout).toMatch(/#1 {2}rejected {2}webmention {2}\/notes\/sample-note {2}Sample Reader/);
  });

  test("block drops the sender's later replies from the owner's queue and counts them", async () => {
    await holdReply(deps, mention());
    expect(replies("block", "reader.example")).toMatchObject({
      status: 0,
      stdout: "Blocked reader.example; 1 waiting reply blocked with it.\n",
    });
    await holdReply(deps, mention({ text: "again" }));
    await holdReply(deps, mention({ text: "and again" }));
    const listed = replies("list");
    expect(listed.stdout).toContain("reader.example  (2 replies since)");
    const statuses = JSON.parse(replies("list", "--json").stdout).map((reply: { status: string }) => reply.status);
    expect(statuses).toEqual(["blocked", "blocked", "blocked"]);
    expect(await backend.database.db.selectFrom("messages").select("id").execute()).toHaveLength(1);
  });

  test("mistyped commands explain themselves with the usage", async () => {
    expect(replies("approve", "one")).toMatchObject({ status: 2 });
    expect(replies("approve", "one").stderr).toContain("approve takes one reply id");
    expect(replies("list", "--xml").stderr).toContain("list takes only --json.");
    expect(replies("block").stderr).toContain("block takes one actor URL, domain or address.");
    expect(replies("forget", "1").stderr).toContain('Unknown command "forget".');
  });
});
