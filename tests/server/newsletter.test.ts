/**
 * The newsletter on real parts: a SQLite file in a temporary folder, the real SMTP
 * server of tests/support/smtp.ts, the backend's own delivery worker. What a recipient receives,
 * what a refusal (550) or a temporary failure (451) does, a person leaving in the middle of a send,
 * the tokens of the links, the 10-minute re-send rule, and export/import of the list.
 */
import { join } from "node:path";
import type { ParsedMail } from "mailparser";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { loadCatalogue } from "../../catalogue/disk.ts";
import type { Backend } from "../../services/backend.ts";
import type { Db } from "../../services/db/database.ts";
import { issueToSend } from "../../services/newsletter/issue.ts";
import { signUp } from "../../services/newsletter/sign-up.ts";
import { importSubscribers, listSubscribers, subscribersCsv } from "../../services/newsletter/subscribers.ts";
import {
  CONFIRMATION_RESEND_MS,
  checkConfirmToken,
  confirmSubscription,
  subscribe,
  unsubscribe,
} from "../../services/newsletter/subscriptions.ts";
import { CONFIRM_TOKEN_DAYS, confirmToken, unsubscribeToken } from "../../services/newsletter/tokens.ts";
import { freezeSend, resumeSend, sendProgress } from "../../services/newsletter/worker.ts";
import {
  makeTempDir,
  SENDER,
  SITE_URL,
  type SmtpRecorder,
  sleep,
  sqliteOf,
  startSmtp,
  startTestBackend,
  TEST_SECRET,
  testConfig,
  waitFor,
} from "./helpers.ts";

const fixtures = loadCatalogue(join(import.meta.dirname, "../fixtures"));
const firstIssue = fixtures.updates.find((issue) => issue.slug === "first-issue");
if (!firstIssue) throw new Error("tests/fixtures/content/updates/first-issue.md is missing");
const issue = issueToSend(firstIssue, fixtures.site.name, SITE_URL);

type TestBackend = Awaited<ReturnType<typeof startTestBackend>>;

/** Quick retries for tests: 50 ms doubling up to 400 ms. */
const FAST_NEWSLETTER = { baseDelayMs: 50, maxDelayMs: 400, leaseMs: 2000, pollIntervalMs: 50 };

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder | undefined;
let backend: TestBackend | undefined;

beforeEach(() => {
  temp = makeTempDir();
});

afterEach(async () => {
  await backend?.close();
  backend = undefined;
  await smtp?.stop();
  smtp = undefined;
  temp.remove();
});

async function startWith(options: Parameters<typeof startSmtp>[0] = {}, start = true) {
  smtp = await startSmtp(options);
  backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url }), {
    newsletter: FAST_NEWSLETTER,
    startOutbox: start,
  });
  return { smtp, backend, db: backend.database.db };
}

async function confirmedSubscribers(db: Db, emails: readonly string[]) {
  const result = await importSubscribers(db, `email\n${emails.join("\n")}\n`);
  expect(result).toMatchObject({ ok: true, added: emails.length });
}

async function sendIssue(target: Backend, again = false) {
  const frozen = await freezeSend(target.database.db, issue, { messageIdDomain: "example.com", again });
  target.newsletter.nudge();
  return frozen;
}

async function untilDone(db: Db, sendId: number) {
  return waitFor(
    async () => {
      const [progress] = await sendProgress(db, sendId);
      return progress && progress.pending === 0 ? progress : undefined;
    },
    { timeoutMs: 20_000, what: `send #${sendId} to finish` },
  );
}

async function untilPaused(db: Db, sendId: number) {
  return waitFor(
    async () => {
      const [progress] = await sendProgress(db, sendId);
      return progress?.send.paused_at ? progress : undefined;
    },
    { what: `send #${sendId} to pause` },
  );
}

const recipientsOf = (mails: readonly { envelope: { to: string[] } }[]) => mails.flatMap((mail) => mail.envelope.to);

const deliveries = (target: Backend) =>
  sqliteOf(target)
    .prepare(
      "SELECT s.email, d.status, d.attempts, d.last_error FROM newsletter_deliveries d JOIN subscribers s ON s.id = d.subscriber_id ORDER BY d.id",
    )
    .all() as { email: string; status: string; attempts: number; last_error: string | null }[];

const statusOf = (target: Backend, email: string) =>
  (sqliteOf(target).prepare("SELECT status FROM subscribers WHERE email = ?").get(email) as { status: string }).status;

describe("the mail a subscriber receives", () => {
  let mail: ParsedMail;
  let raw: string;

  beforeEach(async () => {
    const { db, backend: started, smtp: server } = await startWith();
    await confirmedSubscribers(db, ["reader@example.org"]);
    await sendIssue(started);
    await waitFor(() => server.received.length === 1, { what: "the issue" });
    mail = server.received[0]?.parsed as ParsedMail;
    raw = server.received[0]?.raw as string;
  });

  test("an issue is multipart text and HTML, from MAIL_FROM with the owner's name, the issue's title as subject", () => {
    expect(raw).toMatch(/^Content-Type: multipart\/alternative/im);
    expect(mail.text).toContain("The first fixture issue links to a note (http://localhost:3000/notes/deep-work)");
    expect(mail.html).toContain('href="http://localhost:3000/write/fear"');
    expect(mail.from?.value).toEqual([{ name: fixtures.site.name, address: SENDER }]);
    expect(mail.subject).toBe("First issue");
    expect(mail.html).toMatch(/max-width:600px/);
    expect(mail.html).toMatch(
      /<meta name="color-scheme" content="light dark">[\s\S]*@media \(prefers-color-scheme: dark\)/,
    );
  });

  test("List-Unsubscribe names the subscriber's own link on the site and List-Unsubscribe-Post says One-Click (RFC 8058); the footer repeats it and says why", () => {
    const header = (name: string) =>
      mail.headerLines.find((line) => line.key === name)?.line.replace(/\r?\n[ \t]+/g, "") ?? "";
    const link = /^List-Unsubscribe:\s*<([^>]+)>$/i.exec(header("list-unsubscribe"))?.[1] ?? "";
    const token = unsubscribeToken(TEST_SECRET, { id: 1, email_lower: "reader@example.org" });
    expect(link).toBe(`${SITE_URL}/updates/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.text).toContain(`Unsubscribe with one click: ${link}`);
    expect(mail.text).toMatch(/You get this because you subscribed to updates from .+ and confirmed it\./);
  });

  test("every link of the HTML is absolute, and it loads nothing: no image, no tracking pixel, no remote style", () => {
    const html = mail.html as string;
    const targets = [...html.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((match) => match[1] as string);
    expect(targets.length).toBeGreaterThan(3);
    for (const target of targets) expect(target).toMatch(/^https?:\/\//);
    expect(html).not.toMatch(/<img|<link|<script|url\(|background=/i);
    expect(mail.attachments).toEqual([]);
  });
});

describe("delivery", () => {
  test("a recipient refused with 550 at RCPT TO ends bounced, is not retried, is left out of the next send", async () => {
    const {
      db,
      backend: started,
      smtp: server,
    } = await startWith({
      rejectRecipients: new Map([["gone@example.org", 550]]),
    });
    await confirmedSubscribers(db, ["first@example.org", "gone@example.org", "last@example.org"]);
    const first = await sendIssue(started);
    const progress = await untilDone(db, first.send.id);
    expect(progress).toMatchObject({ total: 3, sent: 2, bounced: 1, skipped: 0 });
    expect(recipientsOf(server.received).sort()).toEqual(["first@example.org", "last@example.org"]);
    const bounced = deliveries(started).find((row) => row.email === "gone@example.org");
    expect(bounced).toMatchObject({ status: "bounced", attempts: 1 });
    expect(bounced?.last_error).toMatch(/550/);
    expect(statusOf(started, "gone@example.org")).toBe("bounced");
    expect((await listSubscribers(db, "bounced")).map((row) => row.email)).toEqual(["gone@example.org"]);

    const second = await sendIssue(started, true);
    expect(second.recipients).toBe(2);
    await untilDone(db, second.send.id);
    expect(recipientsOf(server.received).filter((to) => to === "gone@example.org")).toEqual([]);
    expect(server.received).toHaveLength(4);
  });

  test("an SMTP server refusing our sender pauses the send with every subscriber still confirmed; after resume each recipient gets exactly one mail", async () => {
    const { db, backend: started, smtp: server } = await startWith();
    const emails = ["a@example.org", "b@example.org", "c@example.org", "d@example.org", "e@example.org"];
    await confirmedSubscribers(db, emails);
    server.refuseSender(true);
    const frozen = await sendIssue(started);
    const paused = await untilPaused(db, frozen.send.id);
    await sleep(500);
    expect(paused.send.pause_reason).toContain("550 5.7.1 sender not allowed");
    expect(paused.send.pause_reason).toContain(`npm run newsletter -- resume ${frozen.send.id}`);
    expect(server.received).toHaveLength(0);
    expect(deliveries(started).map((row) => row.status)).toEqual(Array(5).fill("pending"));
    for (const email of emails) expect(statusOf(started, email)).toBe("confirmed");
    expect(started.logs.filter((line) => line.includes("paused"))).toHaveLength(1);

    server.refuseSender(false);
    expect(await resumeSend(db, frozen.send.id)).toBe(true);
    expect(await resumeSend(db, frozen.send.id)).toBe(false);
    started.newsletter.nudge();
    expect(await untilDone(db, frozen.send.id)).toMatchObject({ total: 5, sent: 5, bounced: 0 });
    await sleep(300);
    expect(recipientsOf(server.received).sort()).toEqual(emails);
  });

  test("the circuit breaker: when most of a send's last 20 deliveries are refused for good, it pauses and takes those bounces back", async () => {
    const emails = Array.from({ length: 25 }, (_, index) => `reader${index + 1}@example.org`);
    const {
      db,
      backend: started,
      smtp: server,
    } = await startWith({
      rejectRecipients: new Map(emails.map((email) => [email, 550])),
    });
    await confirmedSubscribers(db, emails);
    const frozen = await sendIssue(started);
    const paused = await untilPaused(db, frozen.send.id);
    await sleep(500);
    expect(paused.send.pause_reason).toMatch(/^11 of the last 20 deliveries were refused for good/);
    expect(await sendProgress(db, frozen.send.id)).toMatchObject([{ total: 25, pending: 25, bounced: 0, sent: 0 }]);
    for (const email of emails) expect(statusOf(started, email)).toBe("confirmed");
    expect(server.received).toHaveLength(0);
  });

  test("a temporary failure (451) is retried with a growing back-off, and the mail arrives once", async () => {
    const { db, backend: started, smtp: server } = await startWith();
    await confirmedSubscribers(db, ["patient@example.org"]);
    server.failNext(2, 451);
    const frozen = await sendIssue(started);
    await untilDone(db, frozen.send.id);
    expect(recipientsOf(server.received)).toEqual(["patient@example.org"]);
    expect(deliveries(started)).toEqual([
      { email: "patient@example.org", status: "sent", attempts: 3, last_error: null },
    ]);
    const delays = started.logs
      .map((entry) => /\[newsletter\] delivery \d+ attempt (\d) failed; next attempt in (\d+) ms/.exec(entry))
      .filter((match) => match !== null)
      .map((match) => [Number(match[1]), Number(match[2])]);
    expect(delays).toEqual([
      [1, 50],
      [2, 100],
    ]);
    expect(statusOf(started, "patient@example.org")).toBe("confirmed");
  });

  test("a recipient who unsubscribes in the middle of a send is skipped, even with their row already claimed", async () => {
    // Each mail takes 150 ms to be accepted: the unsubscribe lands while the batch is being sent.
    const { db, backend: started, smtp: server } = await startWith({ acceptDelayMs: 150 });
    const emails = ["a@example.org", "b@example.org", "c@example.org", "d@example.org", "leaving@example.org"];
    await confirmedSubscribers(db, emails);
    const frozen = await sendIssue(started);
    await waitFor(() => server.received.length >= 1, { what: "the first mail of the send" });
    const leaving = await db
      .selectFrom("subscribers")
      .select(["id", "email_lower"])
      .where("email", "=", "leaving@example.org")
      .executeTakeFirstOrThrow();
    expect(await unsubscribe(db, TEST_SECRET, unsubscribeToken(TEST_SECRET, leaving))).toBe("unsubscribed");
    const progress = await untilDone(db, frozen.send.id);
    expect(progress).toMatchObject({ total: 5, sent: 4, skipped: 1 });
    expect(recipientsOf(server.received)).not.toContain("leaving@example.org");
    expect(deliveries(started).find((row) => row.email === "leaving@example.org")?.status).toBe("skipped");
  });

  test("the same issue is refused a second time unless sent again on purpose; only confirmed subscribers are frozen", async () => {
    const { db, backend: started } = await startWith({}, false);
    await confirmedSubscribers(db, ["one@example.org"]);
    await subscribe(db, "pending@example.org");
    const first = await sendIssue(started);
    expect(first.recipients).toBe(1);
    await expect(sendIssue(started)).rejects.toThrow(/"first-issue" was already sent \(send #1/);
    expect((await sendIssue(started, true)).recipients).toBe(1);
  });
});

describe("the links' tokens", () => {
  let db: Db;
  const day = 24 * 60 * 60 * 1000;

  beforeEach(async () => {
    ({ db } = await startWith({}, false));
  });

  async function pending(email: string, now = Date.now()) {
    const outcome = await subscribe(db, email, { now: new Date(now) });
    if (outcome.outcome !== "created") throw new Error(`expected a new sign-up, got ${outcome.outcome}`);
    return outcome.subscriber;
  }

  test("a confirm token cannot be forged: another secret, another id, a changed expiry or signature all fail", async () => {
    const alice = await pending("alice@example.org");
    const token = confirmToken(TEST_SECRET, alice);
    const [id, expires, signature] = token.split(".") as [string, string, string];
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    for (const forged of [
      confirmToken("another-secret-0123456789abcdef0123456789", alice),
      `${Number(id) + 1}.${expires}.${signature}`,
      `${id}.${Number(expires) + 86_400}.${signature}`,
      `${id}.${expires}.${flipped}`,
      id,
      `${id}.${expires}`,
      "",
    ]) {
      expect(await checkConfirmToken(db, TEST_SECRET, forged), forged).toEqual({ state: "invalid" });
      expect(await confirmSubscription(db, TEST_SECRET, forged), forged).toBe("invalid");
    }
    expect((await listSubscribers(db, "pending")).map((row) => row.email)).toEqual(["alice@example.org"]);
  });

  test("a confirm token expires after 7 days, works once, and a new sign-up voids the old one", async () => {
    const start = Date.now();
    const alice = await pending("alice@example.org", start);
    const token = confirmToken(TEST_SECRET, alice, start);
    const expiry = start + CONFIRM_TOKEN_DAYS * day;
    expect((await checkConfirmToken(db, TEST_SECRET, token, expiry + 1000)).state).toBe("invalid");
    expect(await confirmSubscription(db, TEST_SECRET, token, expiry + 1000)).toBe("invalid");
    expect((await checkConfirmToken(db, TEST_SECRET, token, expiry - 60_000)).state).toBe("valid");
    expect(await confirmSubscription(db, TEST_SECRET, token, expiry - 60_000)).toBe("confirmed");
    expect(await confirmSubscription(db, TEST_SECRET, token, expiry - 30_000)).toBe("invalid");
    expect((await checkConfirmToken(db, TEST_SECRET, token, expiry - 30_000)).state).toBe("confirmed");

    // She leaves and signs up again: the first mail's link must not confirm the new sign-up.
    expect(await unsubscribe(db, TEST_SECRET, unsubscribeToken(TEST_SECRET, alice))).toBe("unsubscribed");
    const again = await pending("alice@example.org", start + 60_000);
    expect((await checkConfirmToken(db, TEST_SECRET, token, start + 120_000)).state).toBe("invalid");
    expect(await confirmSubscription(db, TEST_SECRET, confirmToken(TEST_SECRET, again, start + 60_000))).toBe(
      "confirmed",
    );
  });

  test("a token works for its own subscriber only: one person's link never confirms or unsubscribes another", async () => {
    const alice = await pending("alice@example.org");
    const bob = await pending("bob@example.org");
    const aliceConfirm = confirmToken(TEST_SECRET, alice);
    const aliceLeave = unsubscribeToken(TEST_SECRET, alice);
    const swapId = (token: string) => token.replace(/^\d+/, String(bob.id));
    expect(await confirmSubscription(db, TEST_SECRET, swapId(aliceConfirm))).toBe("invalid");
    expect(await confirmSubscription(db, TEST_SECRET, aliceConfirm)).toBe("confirmed");
    expect(await confirmSubscription(db, TEST_SECRET, confirmToken(TEST_SECRET, bob))).toBe("confirmed");
    expect(await unsubscribe(db, TEST_SECRET, swapId(aliceLeave))).toBe("invalid");
    expect(await unsubscribe(db, TEST_SECRET, `${bob.id}`)).toBe("invalid");
    expect(await unsubscribe(db, TEST_SECRET, unsubscribeToken("another-secret-0123456789abcdef01234567", bob))).toBe(
      "invalid",
    );
    // A confirm token is not an unsubscribe token, nor the other way round.
    expect(await unsubscribe(db, TEST_SECRET, confirmToken(TEST_SECRET, bob))).toBe("invalid");
    expect(await confirmSubscription(db, TEST_SECRET, unsubscribeToken(TEST_SECRET, bob))).toBe("invalid");
    expect(statusOf(backend as Backend, "bob@example.org")).toBe("confirmed");
    expect(await unsubscribe(db, TEST_SECRET, aliceLeave)).toBe("unsubscribed");
    expect(await unsubscribe(db, TEST_SECRET, aliceLeave)).toBe("unsubscribed");
    expect(statusOf(backend as Backend, "alice@example.org")).toBe("unsubscribed");
    expect(statusOf(backend as Backend, "bob@example.org")).toBe("confirmed");
  });
});

describe("signing up again while pending", () => {
  test("the confirmation is mailed again at most once per 10 minutes; each sign-up answers as success", async () => {
    const { db } = await startWith({}, false);
    const start = Date.parse("2026-01-01T12:00:00.000Z");
    const at = (ms: number) => ({ now: new Date(start + ms) });
    expect((await subscribe(db, "again@example.org", at(0))).outcome).toBe("created");
    expect((await subscribe(db, "AGAIN@example.org", at(60_000))).outcome).toBe("pending");
    expect((await subscribe(db, "again@example.org", at(CONFIRMATION_RESEND_MS - 1000))).outcome).toBe("pending");
    expect((await subscribe(db, "again@example.org", at(CONFIRMATION_RESEND_MS))).outcome).toBe("resend");
    expect((await subscribe(db, "again@example.org", at(CONFIRMATION_RESEND_MS + 60_000))).outcome).toBe("pending");
    expect((await subscribe(db, "again@example.org", at(2 * CONFIRMATION_RESEND_MS + 1000))).outcome).toBe("resend");
  });

  test("through the service: three quick sign-ups of one pending email answer 201 and mail one confirmation, from the owner by name", async () => {
    const { backend: started, smtp: server } = await startWith();
    for (let index = 0; index < 3; index++) {
      expect(await signUp(started, { email: "quick@example.org" }, "192.0.2.7")).toEqual({
        ok: true,
        status: 201,
      });
    }
    await waitFor(() => server.received.length === 1, { what: "the confirmation" });
    await new Promise((done) => setTimeout(done, 300));
    expect(server.received).toHaveLength(1);
    const confirmation = server.received[0]?.parsed as ParsedMail;
    // The owner's name from the configuration (content/site.yaml), not the host.
    expect(confirmation.subject).toBe("Please confirm your subscription to updates from Test Owner");
    expect(confirmation.from?.value).toEqual([{ name: "Test Owner", address: SENDER }]);
    expect(confirmation.text).toContain("asked to receive updates from Test Owner (localhost:3000) at this address.");
    expect(confirmation.text).toMatch(/If you did not ask, ignore this mail: nothing will be sent to you/);
    expect(confirmation.html).toBe(false);
    const row = sqliteOf(started).prepare("SELECT status, client_ip FROM subscribers").get();
    expect(row).toEqual({ status: "pending", client_ip: "192.0.2.7" });
  });
});

describe("export and import", () => {
  test("the list exported and imported into an empty database is the same list, statuses and dates included", async () => {
    const { db, backend: started } = await startWith({}, false);
    await confirmedSubscribers(db, ["stays@example.org", "leaves@example.org", "bounces@example.org"]);
    await subscribe(db, "waits@example.org", { ip: "192.0.2.1" });
    await subscribe(db, "+tag@example.org");
    await subscribe(db, "=1+1@example.org");
    const leaving = await db
      .selectFrom("subscribers")
      .select(["id", "email_lower"])
      .where("email", "=", "leaves@example.org")
      .executeTakeFirstOrThrow();
    await unsubscribe(db, TEST_SECRET, unsubscribeToken(TEST_SECRET, leaving));
    sqliteOf(started).prepare("UPDATE subscribers SET status = 'bounced' WHERE email = ?").run("bounces@example.org");
    const exported = subscribersCsv(await listSubscribers(db));
    expect(exported.split("\r\n")[0]).toBe("email,status,created_at,confirmed_at,unsubscribed_at");
    // A spreadsheet shows these addresses as text, never runs them as formulas.
    expect(exported).toContain(`"'+tag@example.org",pending,`);
    expect(exported).toContain(`"'=1+1@example.org",pending,`);

    const other = makeTempDir();
    const elsewhere = await startTestBackend(testConfig(other.path), { startOutbox: false });
    try {
      expect(await importSubscribers(elsewhere.database.db, exported)).toEqual({
        ok: true,
        added: 6,
        confirmed: 0,
        unchanged: 0,
      });
      expect(subscribersCsv(await listSubscribers(elsewhere.database.db))).toBe(exported);
      // Importing it once more changes nothing.
      expect(await importSubscribers(elsewhere.database.db, exported)).toMatchObject({ ok: true, added: 0 });
      expect(subscribersCsv(await listSubscribers(elsewhere.database.db))).toBe(exported);
    } finally {
      await elsewhere.close();
      other.remove();
    }
  });

  test("a file with bad rows imports nothing and names each bad row by its line", async () => {
    const { db } = await startWith({}, false);
    const csv = [
      "name,email",
      "Ann,ann@example.org",
      "Bo,not-an-address",
      '"Multi',
      'line",cy@example.org',
      "Di,di@example",
      "Ed,ed@example.org",
      "",
    ].join("\n");
    const result = await importSubscribers(db, csv);
    expect(result).toEqual({
      ok: false,
      problems: [
        'line 3: "not-an-address" is not a valid email address',
        'line 6: "di@example" is not a valid email address',
      ],
    });
    expect(await listSubscribers(db)).toEqual([]);
    const statuses = await importSubscribers(db, "email,status\nx@example.org,confirmed\ny@example.org,lost\n");
    expect(statuses).toEqual({
      ok: false,
      problems: ['line 3: the status "lost" is not one of pending, confirmed, unsubscribed, bounced'],
    });
    expect(await importSubscribers(db, "email\n")).toEqual({
      ok: false,
      problems: ["the file holds no email address"],
    });
    expect(await listSubscribers(db)).toEqual([]);
    expect(await importSubscribers(db, "name,email\nAnn,ann@example.org\nEd,ed@example.org\n")).toMatchObject({
      ok: true,
      added: 2,
    });
    expect((await listSubscribers(db, "confirmed")).map((row) => row.email)).toEqual([
      "ann@example.org",
      "ed@example.org",
    ]);
  });

  test("a spreadsheet's CSV imports: byte order mark, CRLF and LF mixed, quoted commas, quotes and line breaks; a broken quote is named by its line", async () => {
    const { db } = await startWith({}, false);
    const csv =
      '\uFEFFName,Email\r\n"Quinn, A.",quinn@example.org\r\n"Line\r\nbreak ""here""",lb@example.org\n\r\nLast,last@example.org';
    expect(await importSubscribers(db, csv)).toEqual({ ok: true, added: 3, confirmed: 0, unchanged: 0 });
    expect((await listSubscribers(db)).map((row) => row.email)).toEqual([
      "quinn@example.org",
      "lb@example.org",
      "last@example.org",
    ]);
    const broken = await importSubscribers(db, 'email\nok@example.org\n"open@example.org\n');
    expect(broken).toMatchObject({ ok: false, problems: [expect.stringMatching(/^line \d+: .*quote/i)] });
    expect(await listSubscribers(db)).toHaveLength(3);
  });
});
