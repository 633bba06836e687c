/**
 * Bounces and complaints that arrive after the SMTP conversation, on real parts: the newsletter goes
 * through the real SMTP sink, reports answering what it received are appended over IMAP to a real
 * Dovecot (tests/support/imap.ts), and the bounce pass reads them from there into the project's database.
 */

import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parseConfig } from "../../services/config.ts";
import type { MailReportKind } from "../../services/db/database.ts";
import { type BouncePass, readBounceMailbox, UNREADABLE_FOLDER } from "../../services/newsletter/bounces.ts";
import { importSubscribers } from "../../services/newsletter/subscribers.ts";
import { freezeSend, sendProgress } from "../../services/newsletter/worker.ts";
import { type ImapServer, startImap } from "../support/imap.ts";
import {
  type Answered,
  gmailHardBounce,
  outlookHardBounce,
  postfixSoftBounce,
  yahooComplaint,
} from "../support/reports.ts";
import {
  childProcessEnv,
  makeTempDir,
  OWNER,
  openTestDatabase,
  SENDER,
  type SmtpRecorder,
  startSmtp,
  startTestBackend,
  TEST_ISSUE,
  TEST_SECRET,
  testConfig,
  waitFor,
} from "./helpers.ts";

const issue = TEST_ISSUE;
const READERS = ["ann@example.org", "bob@example.org", "cy@example.org"];

type TestBackend = Awaited<ReturnType<typeof startTestBackend>>;

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let imap: ImapServer;
let backend: TestBackend;
let passLog: string[];

beforeEach(async () => {
  temp = makeTempDir();
  [smtp, imap] = await Promise.all([startSmtp(), startImap()]);
  backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url }), {
    newsletter: { baseDelayMs: 50, maxDelayMs: 400, leaseMs: 2000, pollIntervalMs: 50 },
  });
  const imported = await importSubscribers(backend.database.db, `email\n${READERS.join("\n")}\n`);
  expect(imported).toMatchObject({ ok: true, added: READERS.length });
  passLog = [];
});

afterEach(async () => {
  await backend.close();
  await Promise.all([smtp.stop(), imap.stop()]);
  temp.remove();
});

/** Sends the issue (once more) to every confirmed subscriber; what each received, by address. */
async function sendIssue(): Promise<Map<string, Answered>> {
  const before = smtp.received.length;
  const { send, recipients } = await freezeSend(backend.database.db, issue, {
    messageIdDomain: "example.com",
    again: true,
  });
  backend.newsletter.nudge();
  await waitFor(async () => (await sendProgress(backend.database.db, send.id))[0]?.pending === 0, {
    what: `send #${send.id}`,
  });
  const received = smtp.received.slice(before);
  expect(received).toHaveLength(recipients);
  return new Map(
    received.map(({ raw, envelope }) => [
      envelope.to[0] as string,
      { raw, returnPath: envelope.from, recipient: envelope.to[0] as string },
    ]),
  );
}

const settings = () => ({ ...backend.config, bounceImapUrl: imap.url });
const readPass = (): Promise<BouncePass> =>
  readBounceMailbox(backend.database.db, settings(), (line) => passLog.push(line));

async function statuses(): Promise<Record<string, string>> {
  const rows = await backend.database.db.selectFrom("subscribers").select(["email", "status"]).execute();
  return Object.fromEntries(rows.map((row) => [row.email, row.status]));
}

const unchangedBut = (changes: Record<string, string>) => ({
  ...Object.fromEntries(READERS.map((email) => [email, "confirmed"])),
  ...changes,
});

const reportsOf = (kind: MailReportKind) =>
  backend.database.db.selectFrom("mail_reports").selectAll().where("kind", "=", kind).execute();

/** `npm run newsletter -- bounces` on the backend's database, as the owner runs it. */
function bouncesCommand(bounceImapUrl: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { databaseUrl, dataDir } = backend.config;
  const env = {
    ...childProcessEnv(),
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    SECRET_KEY: TEST_SECRET,
    MAIL_FROM: SENDER,
    BOUNCE_IMAP_URL: bounceImapUrl,
  };
  const command = ["--import", "tsx", "scripts/newsletter.ts", "bounces", "--root", "tests/fixtures"];
  return new Promise((done) => {
    const child = execFile(process.execPath, command, { cwd: fileURLToPath(new URL("../..", import.meta.url)), env });
    let [stdout, stderr] = ["", ""];
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk));
    child.once("close", (status) => done({ status, stdout, stderr }));
  });
}

const mailTo = (mails: Map<string, Answered>, email: string) => mails.get(email) as Answered;

describe("the return path of a newsletter mail", () => {
  test("each mail's envelope sender is its own signed address at MAIL_FROM's domain, and From stays MAIL_FROM", async () => {
    const mails = await sendIssue();
    const returnPaths = [...mails.values()].map((mail) => mail.returnPath);
    for (const path of returnPaths) expect(path).toMatch(/^bounces\+\d+\.\d+\.[0-9a-f]{20}@example\.com$/);
    expect(new Set(returnPaths).size).toBe(READERS.length);
    for (const { raw } of mails.values()) expect(raw).toMatch(new RegExp(`^From: .*<${SENDER}>`, "m"));
  });
});

describe("a later bounce", () => {
  test("a hard bounce shaped as Gmail's marks exactly its subscriber bounced, once", async () => {
    const mails = await sendIssue();
    const report = gmailHardBounce(mailTo(mails, "bob@example.org"));
    await imap.append(report);
    expect((await readPass()).counts).toMatchObject({ hard: 1, unreadable: 0 });
    expect(await statuses()).toEqual(unchangedBut({ "bob@example.org": "bounced" }));
    expect(await imap.messages("INBOX")).toEqual([]);

    // Read again, as after a crash between the commit and the deletion: recorded already, so nothing changes.
    await imap.append(report);
    expect((await readPass()).counts).toMatchObject({ hard: 0, alreadyCounted: 1 });
    expect(await reportsOf("hard")).toHaveLength(1);
  });

  test("a hard bounce shaped as Outlook's, with only the original's headers, marks its subscriber bounced", async () => {
    const mails = await sendIssue();
    await imap.append(outlookHardBounce(mailTo(mails, "cy@example.org")));
    expect((await readPass()).counts).toMatchObject({ hard: 1 });
    expect(await statuses()).toEqual(unchangedBut({ "cy@example.org": "bounced" }));
  });

  test("soft bounces in two of the last five sends are not enough; in a third they mark the subscriber bounced", async () => {
    for (let send = 1; send <= 3; send++) {
      const mails = await sendIssue();
      const answered = mailTo(mails, "ann@example.org");
      // A second report for the same send counts once.
      await imap.append(postfixSoftBounce(answered));
      await imap.append(postfixSoftBounce(answered));
      expect((await readPass()).counts).toMatchObject({ soft: 2 });
      expect((await statuses())["ann@example.org"]).toBe(send < 3 ? "confirmed" : "bounced");
    }
    expect(await statuses()).toEqual(unchangedBut({ "ann@example.org": "bounced" }));
  });

  test("soft bounces spread beyond the last five sends do not add up", async () => {
    for (let send = 1; send <= 7; send++) {
      const mails = await sendIssue();
      if (send === 1 || send === 2 || send === 7)
        await imap.append(postfixSoftBounce(mailTo(mails, "ann@example.org")));
      await readPass();
    }
    expect(await statuses()).toEqual(unchangedBut({}));
  });

  test("a delayed report is a warning, never a failure", async () => {
    const mails = await sendIssue();
    for (let report = 0; report < 3; report++)
      await imap.append(postfixSoftBounce(mailTo(mails, "bob@example.org"), "delayed"));
    expect((await readPass()).counts).toMatchObject({ delayed: 3, soft: 0, hard: 0 });
    expect(await statuses()).toEqual(unchangedBut({}));
    expect(passLog.join("\n")).toMatch(/is delayed, not failed: .*4\.2\.2/);
  });
});

describe("a complaint", () => {
  test("an abuse report shaped as Yahoo's unsubscribes exactly its subscriber at once, counted for its send", async () => {
    const mails = await sendIssue();
    const report = yahooComplaint(mailTo(mails, "ann@example.org"));
    await imap.append(report);
    await imap.append(report);
    expect((await readPass()).counts).toMatchObject({ complaint: 1, alreadyCounted: 1 });
    expect(await statuses()).toEqual(unchangedBut({ "ann@example.org": "unsubscribed" }));
    const [complaint] = await reportsOf("complaint");
    expect(complaint).toMatchObject({ send_id: 1, detail: "Yahoo!-Mail-Feedback/2.0" });
  });

  test("without a return path in the copy of the original, its Message-ID finds the delivery", async () => {
    const mails = await sendIssue();
    await imap.append(yahooComplaint(mailTo(mails, "cy@example.org"), { returnPathHeader: false }));
    expect((await readPass()).counts).toMatchObject({ complaint: 1 });
    expect(await statuses()).toEqual(unchangedBut({ "cy@example.org": "unsubscribed" }));
  });
});

describe("what cannot be read", () => {
  test("a forged return path and garbage change nobody, are moved to Unreadable and listed", async () => {
    const mails = await sendIssue();
    const bob = mailTo(mails, "bob@example.org");
    const forged = { ...bob, returnPath: bob.returnPath.replace(/\.[0-9a-f]{20}@/, ".0123456789abcdef0123@") };
    await imap.append(gmailHardBounce(forged));
    // The words of a bounce, but not its structure.
    await imap.append(
      "From: someone@example.net\r\nTo: site@example.com\r\nSubject: Mailbox full\r\n\r\nDelivery failed: 550 5.1.1 user unknown, mailbox full\r\n",
    );
    await imap.append("\x01 not a mail at all \r\r\n\n--\r\n");
    const pass = await readPass();
    expect(pass.counts).toMatchObject({ hard: 0, soft: 0, complaint: 0, unreadable: 3 });
    expect(await statuses()).toEqual(unchangedBut({}));
    expect(passLog.join("\n")).toContain("addressed to a return path we did not sign");
    expect(pass.unreadable).toHaveLength(3);
    expect(pass.unreadable.join("\n")).toContain('"Mailbox full"');
    expect(await imap.messages(UNREADABLE_FOLDER)).toHaveLength(3);
    expect(await imap.messages("INBOX")).toEqual([]);
  });

  test("CR and LF inside fields and subjects, and a huge message, do not stop the pass", async () => {
    const mails = await sendIssue();
    const bounce = gmailHardBounce(mailTo(mails, "ann@example.org"))
      .replace("Status: 5.1.1", "Status: 5.1.1\r\r\rX-Injected: yes\r")
      .replace("Subject: Delivery Status Notification (Failure)", "Subject: =?utf-8?Q?Delivery=0D=0AStatus=3A_5.1.1?=");
    await imap.append(bounce);
    await imap.append("From: x@example.net\r\nSubject: =?utf-8?Q?two=0D=0Alines?=\r\n\r\nText\r\n");
    await imap.append(
      `Subject: huge\r\nContent-Type: text/plain\r\n\r\n${"x".repeat(998).concat("\r\n").repeat(5000)}`,
    );
    const pass = await readPass();
    expect(pass.counts).toMatchObject({ hard: 1, unreadable: 2 });
    expect(passLog.join("\n")).toContain("larger than 4 MB");
    expect(pass.unreadable.join("\n")).toContain(String.raw`"two\r\nlines"`);
    expect(pass.unreadable.join("").split("\n")).toHaveLength(1);
    expect(await statuses()).toEqual(unchangedBut({ "ann@example.org": "bounced" }));
  });
});

describe("several readers", () => {
  test("two passes at once over the same mailbox count each report once", async () => {
    const mails = await sendIssue();
    await imap.append(gmailHardBounce(mailTo(mails, "ann@example.org")));
    await imap.append(postfixSoftBounce(mailTo(mails, "bob@example.org")));
    await imap.append(yahooComplaint(mailTo(mails, "cy@example.org")));
    // A second connection to the same database, as another instance has.
    const other = await openTestDatabase(backend.config);
    const passes = await Promise.all([
      readPass(),
      readBounceMailbox(other.db, settings(), (line) => passLog.push(line)).finally(() => other.close()),
    ]);
    const total = (kind: "hard" | "soft" | "complaint") => passes.reduce((sum, pass) => sum + pass.counts[kind], 0);
    expect([total("hard"), total("soft"), total("complaint")]).toEqual([1, 1, 1]);
    expect(await statuses()).toEqual(unchangedBut({ "ann@example.org": "bounced", "cy@example.org": "unsubscribed" }));
    const reports = await backend.database.db.selectFrom("mail_reports").select("kind").execute();
    expect(reports.map((report) => report.kind).sort()).toEqual(["complaint", "hard", "soft"]);
    expect(await imap.messages("INBOX")).toEqual([]);
  });

  test("the server reads the mailbox on its own when BOUNCE_IMAP_URL is set", async () => {
    const mails = await sendIssue();
    await imap.append(gmailHardBounce(mailTo(mails, "bob@example.org")));
    const second = await startTestBackend({ ...backend.config, bounceImapUrl: imap.url }, { startOutbox: true });
    try {
      await waitFor(async () => (await statuses())["bob@example.org"] === "bounced", { what: "the bounce" });
    } finally {
      await second.close();
    }
  });
});

describe("npm run newsletter -- bounces", () => {
  test("reads the mailbox once, says what it did and lists the Unreadable folder", async () => {
    const mails = await sendIssue();
    await imap.append(gmailHardBounce(mailTo(mails, "bob@example.org")));
    await imap.append("From: someone@example.net\r\nSubject: Out of office\r\n\r\nBack on Monday.\r\n");
    const { stdout } = await bouncesCommand(imap.url);
    expect(stdout).toContain(
      "Read 1 hard bounce, 0 soft bounces, 0 delayed, 0 complaints; 0 already counted, 1 moved to Unreadable.",
    );
    expect(stdout).toMatch(/Unreadable holds 1 message:\n {2}\S+ {2}someone@example\.net {2}"Out of office"\n/);
    expect(await statuses()).toEqual(unchangedBut({ "bob@example.org": "bounced" }));
  });
});

describe("a bounce mailbox that cannot be read", () => {
  test("a wrong password is one line naming the setting", async () => {
    const wrong = imap.url.replace(":test-password@", ":wrong@");
    const { status, stdout, stderr } = await bouncesCommand(wrong);
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^BOUNCE_IMAP_URL: cannot log in to 127\.0\.0\.1:\d+: Authentication failed\.\n$/);
  });

  test("a BOUNCE_IMAP_URL that is not imap:// or imaps:// stops the start with one line", () => {
    expect(() =>
      parseConfig({ BOUNCE_IMAP_URL: "pop3://user:pass@mail.example.com/INBOX" }, { ownerEmail: OWNER }),
    ).toThrow(
      'BOUNCE_IMAP_URL="pop3://user:pass@mail.example.com/INBOX" must look like imap://user:password@host:143/INBOX (imaps:// for TLS)',
    );
  });
});
