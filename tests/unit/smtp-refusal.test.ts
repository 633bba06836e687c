/** Whom a failed SMTP attempt is about: nodemailer's errors as a real SMTP server provokes them. */
import { expect, test } from "vitest";
import { refusalOf } from "../../services/mail/queue.ts";

const smtpError = (command: string, response: string, code = "EENVELOPE") =>
  Object.assign(new Error(`failed: ${response}`), {
    code,
    command,
    response,
    responseCode: Number(response.slice(0, 3)),
  });

test("a refused mailbox is about the recipient", () => {
  expect(refusalOf(smtpError("RCPT TO", "550 5.1.1 No such user"))).toBe("recipient");
  expect(refusalOf(smtpError("RCPT TO", "550 No such mailbox"))).toBe("recipient");
  expect(refusalOf(smtpError("DATA", "552 5.2.2 Mailbox full", "EMESSAGE"))).toBe("recipient");
});

test("a refused sender, login or policy is about us, wherever it is answered", () => {
  expect(refusalOf(smtpError("MAIL FROM", "550 5.7.1 sender not allowed"))).toBe("sender");
  expect(refusalOf(smtpError("MAIL FROM", "553 5.1.8 Sender domain does not exist"))).toBe("sender");
  expect(refusalOf(smtpError("RCPT TO", "554 5.7.1 Relay access denied"))).toBe("sender");
  expect(refusalOf(smtpError("AUTH PLAIN", "535 5.7.8 Authentication failed", "EAUTH"))).toBe("sender");
  expect(refusalOf(Object.assign(new Error("Error initiating TLS"), { code: "ETLS", command: "CONN" }))).toBe("sender");
});

test("a mail refused at DATA without a mailbox status is about the mail", () => {
  expect(refusalOf(smtpError("DATA", "554 Message refused", "EMESSAGE"))).toBe("message");
});

test("a 4xx, a lost connection or a timeout is transient", () => {
  expect(refusalOf(smtpError("DATA", "451 4.3.0 Try again later", "EMESSAGE"))).toBeUndefined();
  expect(refusalOf(smtpError("AUTH PLAIN", "454 4.7.0 Temporary authentication failure", "EAUTH"))).toBeUndefined();
  expect(
    refusalOf(Object.assign(new Error("connect ECONNREFUSED"), { code: "ESOCKET", command: "CONN" })),
  ).toBeUndefined();
  expect(refusalOf(new Error("Timeout"))).toBeUndefined();
  expect(refusalOf(undefined)).toBeUndefined();
});
