/**
 * The welcome mail after a confirmation, on the project's database with the newsletter worker
 * delivering to the real SMTP sink: the content's words or a plain default, and one welcome per
 * subscriber, whether the button is pressed by two instances at once or the person signs up again.
 */

import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { messageIdDomainOf } from "../../services/mail/outbox.ts";
import { confirmSubscription, subscribe, unsubscribe } from "../../services/newsletter/subscriptions.ts";
import { confirmToken, unsubscribeToken } from "../../services/newsletter/tokens.ts";
import { welcomeToSend } from "../../services/newsletter/welcome.ts";
import {
  BACKEND,
  makeTempDir,
  openTestDatabase,
  SENDER,
  SITE_URL,
  type SmtpRecorder,
  sleep,
  startSmtp,
  startTestBackend,
  TEST_SECRET,
  type TestBackend,
  testConfig,
  waitFor,
} from "./helpers.ts";

const welcome = {
  mail: welcomeToSend("Fixture site", undefined, SITE_URL),
  messageIdDomain: messageIdDomainOf(SENDER),
};

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let backend: TestBackend;

beforeEach(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
  backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url }), {
    newsletter: { baseDelayMs: 50, maxDelayMs: 400, leaseMs: 2000, pollIntervalMs: 50 },
  });
});

afterEach(async () => {
  await backend.close();
  await smtp.stop();
  temp.remove();
});

async function signedUp(email: string) {
  const outcome = await subscribe(backend.database.db, email);
  if (outcome.outcome !== "created") throw new Error(`${email} was not signed up: ${outcome.outcome}`);
  return outcome.subscriber;
}

/** The welcomes the SMTP sink received once the worker has nothing left to send. */
async function welcomesReceived() {
  const db = backend.database.db;
  const pending = () => db.selectFrom("newsletter_deliveries").select("id").where("status", "=", "pending").execute();
  await waitFor(async () => (await pending()).length === 0, { what: "the welcomes" });
  await sleep(300);
  return smtp.received.map((mail) => [mail.envelope.to[0], mail.parsed.subject]);
}

describe("the welcome mail", () => {
  test("without the owner's words, a plain welcome naming the site, with the past issues' page as its link", async () => {
    expect(welcome.mail).toMatchObject({
      subject: "Welcome to updates from Fixture site",
      issueUrl: `${SITE_URL}/updates`,
      bodyText: "Thank you for confirming. The next update will reach you here; the past ones are on the site.",
    });
    const reader = await signedUp("reader@example.org");
    const token = confirmToken(TEST_SECRET, reader);
    expect(await confirmSubscription(backend.database.db, TEST_SECRET, token, Date.now(), welcome)).toBe("confirmed");
    backend.newsletter.nudge();
    expect(await welcomesReceived()).toEqual([["reader@example.org", "Welcome to updates from Fixture site"]]);
    expect(smtp.received[0]?.parsed.text).toContain(`Past updates on the site: ${SITE_URL}/updates`);
  });

  // SQLite's driver is synchronous: two connections in one process would wait on each other, not race.
  test.runIf(BACKEND === "postgres")("two instances confirming the same link at once send one welcome", async () => {
    const reader = await signedUp("twice@example.org");
    const token = confirmToken(TEST_SECRET, reader);
    const other = await openTestDatabase(backend.config);
    try {
      const outcomes = await Promise.all(
        [backend.database.db, other.db].map((db) => confirmSubscription(db, TEST_SECRET, token, Date.now(), welcome)),
      );
      expect(outcomes.sort()).toEqual(["confirmed", "invalid"]);
    } finally {
      await other.close();
    }
    backend.newsletter.nudge();
    expect(await welcomesReceived()).toEqual([["twice@example.org", "Welcome to updates from Fixture site"]]);
  });

  test("someone who leaves and confirms a new sign-up is not welcomed again, even after the owner rewords the welcome", async () => {
    const db = backend.database.db;
    const first = await signedUp("back@example.org");
    await expect(
      await confirmSubscription(db, TEST_SECRET, confirmToken(TEST_SECRET, first), Date.now(), welcome),
    ).toBe("confirmed");
    // Welcomed before leaving: a welcome still queued when they leave is rightly skipped, as any mail is.
    backend.newsletter.nudge();
    const welcomed = [["back@example.org", "Welcome to updates from Fixture site"]];
    expect(await welcomesReceived()).toEqual(welcomed);
    expect(await unsubscribe(db, TEST_SECRET, unsubscribeToken(TEST_SECRET, first))).toBe("unsubscribed");
    const again = await signedUp("back@example.org");
    const reworded = { ...welcome, mail: { ...welcome.mail, subject: "Hello again" } };
    const token = confirmToken(TEST_SECRET, again, Date.now() + 1000);
    expect(await confirmSubscription(db, TEST_SECRET, token, Date.now() + 1000, reworded)).toBe("confirmed");
    backend.newsletter.nudge();
    expect(await welcomesReceived()).toEqual(welcomed);
  });
});
