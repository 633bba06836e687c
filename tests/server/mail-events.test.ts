/**
 * Bounces and complaints a sending service posts, on real parts: the newsletter goes through the real
 * SMTP sink, and the events answering what it received are posted over HTTP to the JSON API served on
 * a free port. SNS messages are signed for real with a self-signed certificate made by openssl, which
 * SNS_TEST_CERTIFICATE_FILE names in place of Amazon's.
 */
import { execFileSync } from "node:child_process";
import { createSign, randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { parseConfig } from "../../services/config.ts";
import { importSubscribers } from "../../services/newsletter/subscribers.ts";
import { freezeSend, sendProgress } from "../../services/newsletter/worker.ts";
import {
  makeTempDir,
  OWNER,
  type ReceivedMail,
  readAnswer,
  type Served,
  type SmtpRecorder,
  serveApp,
  startSmtp,
  startTestBackend,
  TEST_ISSUE,
  testConfig,
  waitFor,
} from "./helpers.ts";

const issue = TEST_ISSUE;
const READERS = ["ann@example.org", "bob@example.org", "cy@example.org"];
const TOPIC = "arn:aws:sns:eu-west-1:123456789012:ses-reports";
const CERTIFICATE_URL = "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem";
const POSTMARK_SECRET = "postmark-secret-0123456789";

let temp: ReturnType<typeof makeTempDir>;
let certificateDir: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let backend: Awaited<ReturnType<typeof startTestBackend>>;
let served: Served;
let signingKey: string;

// One certificate for the file: the server keeps each certificate it read, by its address.
beforeAll(() => {
  certificateDir = makeTempDir();
  const key = join(certificateDir.path, "sns-key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=sns.amazonaws.com",
      "-keyout",
      key,
      "-out",
      join(certificateDir.path, "sns-certificate.pem"),
    ],
    { stdio: "ignore" },
  );
  signingKey = readFileSync(key, "utf8");
});

afterAll(() => certificateDir.remove());

beforeEach(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
  backend = await startTestBackend(
    testConfig(temp.path, {
      smtpUrl: smtp.url,
      sesTopicArn: TOPIC,
      snsTestCertificateFile: join(certificateDir.path, "sns-certificate.pem"),
      postmarkWebhookSecret: POSTMARK_SECRET,
    }),
    { newsletter: { baseDelayMs: 50, maxDelayMs: 400, leaseMs: 2000, pollIntervalMs: 50 } },
  );
  const imported = await importSubscribers(backend.database.db, `email\n${READERS.join("\n")}\n`);
  expect(imported).toMatchObject({ ok: true, added: READERS.length });
  served = await serveApp(backend.api);
});

afterEach(async () => {
  await served.close();
  await backend.close();
  await smtp.stop();
  temp.remove();
});

/** Sends the issue (once more) to every confirmed subscriber; what each received, by address. */
async function sendIssue(): Promise<Map<string, ReceivedMail>> {
  const before = smtp.received.length;
  const { send } = await freezeSend(backend.database.db, issue, { messageIdDomain: "example.com", again: true });
  backend.newsletter.nudge();
  await waitFor(async () => (await sendProgress(backend.database.db, send.id))[0]?.pending === 0, {
    what: `send #${send.id}`,
  });
  return new Map(smtp.received.slice(before).map((mail) => [mail.envelope.to[0] as string, mail]));
}

async function statuses(): Promise<Record<string, string>> {
  const rows = await backend.database.db.selectFrom("subscribers").select(["email", "status"]).execute();
  return Object.fromEntries(rows.map((row) => [row.email, row.status]));
}

const unchangedBut = (changes: Record<string, string> = {}) => ({
  ...Object.fromEntries(READERS.map((email) => [email, "confirmed"])),
  ...changes,
});

const reportCount = async () => (await backend.database.db.selectFrom("mail_reports").select("id").execute()).length;

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${served.url}${path}`, { method: "POST", headers, body });
  return readAnswer(response);
}

type Envelope = Record<string, string>;

/** An SNS message signed as SNS signs it: "Name\nvalue\n" for each signed field, in order. */
function signed(fields: Envelope, version: "1" | "2" = "2"): Envelope {
  const names =
    fields.Type === "Notification"
      ? ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
      : ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"];
  const text = names
    .filter((name) => fields[name] !== undefined)
    .map((name) => `${name}\n${fields[name]}\n`)
    .join("");
  const signature = createSign(version === "1" ? "RSA-SHA1" : "RSA-SHA256")
    .update(text)
    .sign(signingKey, "base64");
  return { SigningCertURL: CERTIFICATE_URL, ...fields, SignatureVersion: version, Signature: signature };
}

function snsNotification(message: object, overrides: Envelope = {}): Envelope {
  return {
    Type: "Notification",
    MessageId: randomUUID(),
    TopicArn: TOPIC,
    Message: JSON.stringify(message),
    Timestamp: new Date().toISOString(),
    ...overrides,
  };
}

/** SES's notification about one newsletter mail, with its headers kept, as SES sends it through SNS. */
function sesNotification<Event extends object>(mail: ReceivedMail, event: Event) {
  return {
    ...event,
    mail: {
      timestamp: new Date().toISOString(),
      source: mail.envelope.from,
      messageId: `0102${randomUUID()}-000000`,
      destination: mail.envelope.to,
      headersTruncated: false,
      headers: [
        { name: "From", value: mail.parsed.from?.text ?? "" },
        { name: "To", value: mail.envelope.to[0] },
        { name: "Message-ID", value: mail.parsed.messageId },
      ],
      commonHeaders: { messageId: mail.parsed.messageId, subject: mail.parsed.subject },
    },
  };
}

const sesBounce = (mail: ReceivedMail, bounceType: "Permanent" | "Transient" | "Undetermined") =>
  sesNotification(mail, {
    notificationType: "Bounce",
    bounce: {
      bounceType,
      bounceSubType: bounceType === "Permanent" ? "General" : "MailboxFull",
      bouncedRecipients: [
        {
          emailAddress: mail.envelope.to[0],
          action: "failed",
          status: bounceType === "Permanent" ? "5.1.1" : "4.2.2",
          diagnosticCode: "smtp; invented diagnostic",
        },
      ],
      timestamp: new Date().toISOString(),
      feedbackId: `0102${randomUUID()}-000000`,
    },
  });

const sesComplaint = (mail: ReceivedMail) =>
  sesNotification(mail, {
    notificationType: "Complaint",
    complaint: {
      complainedRecipients: [{ emailAddress: mail.envelope.to[0] }],
      timestamp: new Date().toISOString(),
      feedbackId: `0102${randomUUID()}-000000`,
      complaintFeedbackType: "abuse",
    },
  });

const postSes = (message: Envelope | string) =>
  post("/api/mail-events/ses", typeof message === "string" ? message : JSON.stringify(message), {
    "content-type": "text/plain; charset=UTF-8",
    "x-amz-sns-message-type": "Notification",
  });

const basic = (password: string) => `Basic ${Buffer.from(`postmark:${password}`).toString("base64")}`;

function postmarkEvent(email: string, type: string, id = Math.floor(Math.random() * 1e9)) {
  return {
    RecordType: type === "SpamComplaint" ? "SpamComplaint" : "Bounce",
    ID: id,
    Type: type,
    TypeCode: type === "HardBounce" ? 1 : type === "SpamComplaint" ? 512 : 4096,
    Name: type,
    MessageID: randomUUID(),
    ServerID: 23,
    MessageStream: "broadcast",
    Description: "Invented description.",
    Details: "smtp; invented diagnostic",
    Email: email,
    From: "site@example.com",
    BouncedAt: new Date().toISOString(),
    Subject: issue.subject,
  };
}

const postPostmark = (body: object | string, password = POSTMARK_SECRET) =>
  post("/api/mail-events/postmark", typeof body === "string" ? body : JSON.stringify(body), {
    "content-type": "application/json",
    authorization: basic(password),
  });

const mailTo = (mails: Map<string, ReceivedMail>, email: string) => mails.get(email) as ReceivedMail;

describe("Amazon SES notifications through SNS", () => {
  test("a permanent bounce signed with SignatureVersion 1 marks exactly its subscriber bounced, and a retried post counts once", async () => {
    const mails = await sendIssue();
    const message = signed(snsNotification(sesBounce(mailTo(mails, "bob@example.org"), "Permanent")), "1");
    const first = await postSes(message);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ ok: true, outcome: "counted" });
    expect(await statuses()).toEqual(unchangedBut({ "bob@example.org": "bounced" }));

    const retried = await postSes(message);
    expect(retried.json).toEqual({ ok: true, outcome: "already counted" });
    expect(await reportCount()).toBe(1);
  });

  test("transient bounces in two sends are not enough; in a third they mark the subscriber bounced", async () => {
    for (let send = 1; send <= 3; send++) {
      const mails = await sendIssue();
      const answer = await postSes(signed(snsNotification(sesBounce(mailTo(mails, "ann@example.org"), "Transient"))));
      expect(answer.json).toEqual({ ok: true, outcome: "counted" });
      expect((await statuses())["ann@example.org"]).toBe(send < 3 ? "confirmed" : "bounced");
    }
    expect(await statuses()).toEqual(unchangedBut({ "ann@example.org": "bounced" }));
  });

  test("a complaint unsubscribes exactly its subscriber at once", async () => {
    const mails = await sendIssue();
    const answer = await postSes(signed(snsNotification(sesComplaint(mailTo(mails, "cy@example.org")))));
    expect(answer.status).toBe(200);
    expect(await statuses()).toEqual(unchangedBut({ "cy@example.org": "unsubscribed" }));
  });

  test("a mail found by its Message-ID alone, when SES names another envelope sender, still maps to its subscriber", async () => {
    const mails = await sendIssue();
    const notification = sesBounce(mailTo(mails, "bob@example.org"), "Permanent");
    notification.mail.source = "site@example.com";
    expect((await postSes(signed(snsNotification(notification)))).status).toBe(200);
    expect(await statuses()).toEqual(unchangedBut({ "bob@example.org": "bounced" }));
  });

  test("an undetermined bounce, or one whose mail went to another address, changes nobody", async () => {
    const mails = await sendIssue();
    const undetermined = await postSes(
      signed(snsNotification(sesBounce(mailTo(mails, "ann@example.org"), "Undetermined"))),
    );
    expect(undetermined.status).toBe(200);
    const elsewhere = sesBounce(mailTo(mails, "ann@example.org"), "Permanent");
    for (const recipient of elsewhere.bounce.bouncedRecipients) recipient.emailAddress = "bob@example.org";
    const answer = await postSes(signed(snsNotification(elsewhere)));
    expect(answer.status).toBe(200);
    expect(answer.json.outcome).toMatch(/^nobody changed: the mail it names was not sent to bob@example.org$/);
    expect(await statuses()).toEqual(unchangedBut());
    expect(await reportCount()).toBe(0);
  });

  test("a forged signature, a certificate off Amazon's SNS host, another topic, malformed or oversized bodies are refused, changing nobody", async () => {
    const mails = await sendIssue();
    const genuine = signed(snsNotification(sesBounce(mailTo(mails, "bob@example.org"), "Permanent")));
    const tampered = { ...genuine, Message: genuine.Message?.replace("bob@example.org", "ann@example.org") ?? "" };
    const refusals: [Envelope | string, number, RegExp][] = [
      [tampered, 401, /signature does not hold/],
      [{ ...genuine, Signature: "AAAA" }, 401, /signature does not hold/],
      [
        { ...genuine, SigningCertURL: "https://sns.eu-west-1.amazonaws.com.example.net/cert.pem" },
        401,
        /SigningCertURL/,
      ],
      [{ ...genuine, SigningCertURL: "http://sns.eu-west-1.amazonaws.com/cert.pem" }, 401, /SigningCertURL/],
      [{ ...genuine, SigningCertURL: "https://sns.eu-west-1.amazonaws.com:8443/cert.pem" }, 401, /SigningCertURL/],
      [
        signed({
          ...snsNotification(sesBounce(mailTo(mails, "bob@example.org"), "Permanent")),
          TopicArn: `${TOPIC}-other`,
        }),
        401,
        /not SES_TOPIC_ARN/,
      ],
      [{ ...genuine, SignatureVersion: "3" }, 400, /^Not an SNS message: SignatureVersion/],
      ['{"Type": "Notification",', 400, /not valid JSON/],
      [
        signed(snsNotification({ notificationType: "Delivery", mail: {} })),
        400,
        /type Delivery, not a Bounce or Complaint/,
      ],
      [signed({ ...snsNotification({}), Message: "not json" }), 400, /Message is not JSON/],
      [JSON.stringify({ ...genuine, Padding: "x".repeat(600 * 1024) }), 413, /512 KB at most/],
    ];
    for (const [message, status, error] of refusals) {
      const answer = await postSes(message);
      expect({ status: answer.status, error: answer.json.error }).toEqual({
        status,
        error: expect.stringMatching(error),
      });
    }
    expect(await statuses()).toEqual(unchangedBut());
    expect(await reportCount()).toBe(0);
  });

  test("a subscription confirmation whose SubscribeURL is off Amazon's SNS host is refused without fetching it", async () => {
    const answer = await postSes(
      signed({
        Type: "SubscriptionConfirmation",
        MessageId: randomUUID(),
        Token: "invented-token",
        TopicArn: TOPIC,
        Message: "You have chosen to subscribe to the topic.",
        SubscribeURL: `${served.url}/confirm`,
        Timestamp: new Date().toISOString(),
      }),
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(/SubscribeURL is not an https address on sns\.<region>\.amazonaws\.com/);
  });
});

describe("Postmark webhooks", () => {
  test("a hard bounce marks exactly its subscriber bounced, and a retried post counts once", async () => {
    await sendIssue();
    const event = postmarkEvent("Bob@Example.org", "HardBounce");
    // Postmark posts from its own machines; the same-origin rule of the site's forms is not for it.
    const answer = await post("/api/mail-events/postmark", JSON.stringify(event), {
      "content-type": "application/json",
      origin: "https://postmarkapp.example",
      authorization: basic(POSTMARK_SECRET),
    });
    expect(answer.json).toEqual({ ok: true, outcome: "counted" });
    expect((await postPostmark(event)).json).toEqual({ ok: true, outcome: "already counted" });
    expect(await statuses()).toEqual(unchangedBut({ "bob@example.org": "bounced" }));
    expect(await reportCount()).toBe(1);
  });

  test("soft bounces after two sends are not enough; after a third they mark the subscriber bounced", async () => {
    for (let send = 1; send <= 3; send++) {
      await sendIssue();
      const type = send === 2 ? "Transient" : "SoftBounce";
      expect((await postPostmark(postmarkEvent("ann@example.org", type))).json).toEqual({
        ok: true,
        outcome: "counted",
      });
      expect((await statuses())["ann@example.org"]).toBe(send < 3 ? "confirmed" : "bounced");
    }
  });

  test("a spam complaint unsubscribes exactly its subscriber at once", async () => {
    await sendIssue();
    expect((await postPostmark(postmarkEvent("cy@example.org", "SpamComplaint"))).status).toBe(200);
    expect(await statuses()).toEqual(unchangedBut({ "cy@example.org": "unsubscribed" }));
  });

  test("an auto-reply, or an address never mailed, changes nobody", async () => {
    await sendIssue();
    expect((await postPostmark(postmarkEvent("ann@example.org", "AutoResponder"))).status).toBe(200);
    const stranger = await postPostmark(postmarkEvent("stranger@example.org", "HardBounce"));
    expect(stranger.json.outcome).toMatch(/no newsletter mail to stranger@example.org is on record/);
    expect(await statuses()).toEqual(unchangedBut());
    expect(await reportCount()).toBe(0);
  });

  test("a forged or missing secret, a malformed body or an unknown record type is refused, changing nobody", async () => {
    await sendIssue();
    const event = postmarkEvent("bob@example.org", "HardBounce");
    const missing = await post("/api/mail-events/postmark", JSON.stringify(event), {
      "content-type": "application/json",
    });
    expect(missing.status).toBe(401);
    expect(missing.json.error).toBe("The Basic authentication password is not POSTMARK_WEBHOOK_SECRET.");
    expect((await postPostmark(event, `${POSTMARK_SECRET}x`)).status).toBe(401);
    expect((await postPostmark(event, POSTMARK_SECRET.slice(0, -1))).status).toBe(401);
    expect((await postPostmark("{not json")).json.error).toMatch(/not valid JSON/);
    const unknown = await postPostmark({ ...event, RecordType: "Open" });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatch(/^Not a Postmark bounce or spam complaint: RecordType is neither/);
    expect((await postPostmark({ ...event, Email: 42 })).status).toBe(400);
    expect(await statuses()).toEqual(unchangedBut());
    expect(await reportCount()).toBe(0);
  });
});

describe("the webhooks' settings", () => {
  test("a malformed topic or a short secret stops the start with one line naming the variable", () => {
    expect(() => parseConfig({ SES_TOPIC_ARN: "ses-reports" }, { ownerEmail: OWNER })).toThrow(
      'SES_TOPIC_ARN="ses-reports" must be an SNS topic\'s ARN',
    );
    expect(() => parseConfig({ POSTMARK_WEBHOOK_SECRET: "short" }, { ownerEmail: OWNER })).toThrow(
      'POSTMARK_WEBHOOK_SECRET="short" must be at least 16 characters',
    );
  });

  test("with neither setting, both webhooks refuse every post, changing nobody", async () => {
    const bare = await startTestBackend(testConfig(makeTempDir().path, {}), { startOutbox: false });
    const server = await serveApp(bare.api);
    try {
      const postmark = await fetch(`${server.url}/api/mail-events/postmark`, {
        method: "POST",
        headers: { authorization: basic("") },
        body: JSON.stringify(postmarkEvent("ann@example.org", "HardBounce")),
      });
      expect(postmark.status).toBe(401);
      expect(await postmark.json()).toEqual({
        error: "Postmark webhooks are off: POSTMARK_WEBHOOK_SECRET is not set.",
      });
      const ses = await fetch(`${server.url}/api/mail-events/ses`, { method: "POST", body: "{}" });
      expect(await ses.json()).toEqual({ error: "SES notifications are off: SES_TOPIC_ARN is not set." });
      expect(ses.status).toBe(401);
      expect((await fetch(`${server.url}/api/mail-events/ses`)).status).toBe(405);
      expect((await fetch(`${server.url}/api/mail-events/other`, { method: "POST" })).status).toBe(404);
    } finally {
      await server.close();
      await bare.close();
      rmSync(bare.config.dataDir, { recursive: true, force: true });
    }
  });
});
