/**
 * A contact message from an address with a non-ASCII local part reaches the
 * owner with that address, exactly, in Reply-To, in a transaction that declared SMTPUTF8 when the
 * real SMTP server of tests/support/smtp.ts offers it (services/mail/smtputf8.ts); the envelope still
 * names only the site's sender and the owner.
 */
import { afterEach, expect, test } from "vitest";
import { needsSmtpUtf8 } from "../../services/mail/smtputf8.ts";
import { createMailer } from "../../services/mail/transport.ts";
import { makeTempDir, OWNER, SENDER, type SmtpRecorder, startSmtp } from "./helpers.ts";

const VISITOR = "jösé.müller@example.com";

let smtp: SmtpRecorder | undefined;
let temp: ReturnType<typeof makeTempDir> | undefined;

afterEach(async () => {
  await smtp?.stop();
  temp?.remove();
});

async function sendContact(replyTo: string, server: SmtpRecorder) {
  temp = makeTempDir();
  const mailer = createMailer({
    smtpUrl: server.url,
    dataDir: temp.path,
    ownerEmail: OWNER,
    mailFrom: SENDER,
    ownerName: "Test Owner",
  });
  try {
    await mailer.deliver({
      messageId: `<utf8-${Date.now()}@example.com>`,
      date: new Date(),
      replyTo,
      subject: "Grüße",
      text: "Hallo!",
    });
  } finally {
    mailer.close();
  }
  const mail = server.received.at(-1);
  if (!mail) throw new Error("the SMTP server received nothing");
  return mail;
}

test("a non-ASCII local part goes raw into Reply-To, with SMTPUTF8 declared, and stays out of the envelope", async () => {
  smtp = await startSmtp();
  const mail = await sendContact(VISITOR, smtp);
  expect(mail.envelope).toEqual({ from: SENDER, to: [OWNER], smtpUtf8: true });
  expect(mail.parsed.replyTo?.value.map((address) => address.address)).toEqual([VISITOR]);
  expect(mail.raw).toMatch(/^Reply-To: jösé\.müller@example\.com\r?$/m);
  expect(mail.parsed.subject).toBe("Grüße");
});

test("an ASCII Reply-To sends no SMTPUTF8; a server without the extension still gets the message", async () => {
  smtp = await startSmtp();
  const ascii = await sendContact("visitor@example.com", smtp);
  expect(ascii.envelope.smtpUtf8).toBe(false);
  await smtp.stop();
  smtp = await startSmtp({ withoutSmtpUtf8: true });
  const plain = await sendContact(VISITOR, smtp);
  expect(plain.envelope.smtpUtf8).toBe(false);
  expect(plain.parsed.replyTo?.value.map((address) => address.address)).toEqual([VISITOR]);
});

test("only a non-ASCII local part needs SMTPUTF8", () => {
  expect(needsSmtpUtf8(VISITOR)).toBe(true);
  expect(needsSmtpUtf8("visitor@example.com")).toBe(false);
  expect(needsSmtpUtf8("visitor@exämple.com")).toBe(false);
});
