/**
 * Delivery status notifications (RFC 3464) and abuse reports (RFC 5965) laid out as Gmail, Outlook,
 * Postfix and Yahoo lay theirs out: their senders, subjects, MIME parts and field spellings. The
 * wording is invented. Each answers one newsletter mail as the SMTP sink received it.
 */
import { randomUUID } from "node:crypto";

export type Answered = {
  /** The mail as the SMTP sink received it. */
  raw: string;
  /** Its envelope sender, where a bounce goes back to. */
  returnPath: string;
  recipient: string;
};

type Part = { type: string; body: string };

const CRLF = (text: string) => text.replace(/\r?\n/g, "\r\n");

function multipartReport(headers: Record<string, string>, reportType: string, parts: Part[]): string {
  const boundary = `report-${randomUUID()}`;
  const head = Object.entries({
    ...headers,
    Date: new Date().toUTCString(),
    "MIME-Version": "1.0",
    "Content-Type": `multipart/report; report-type=${reportType};\n\tboundary="${boundary}"`,
  })
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
  const body = parts.map(({ type, body }) => `--${boundary}\nContent-Type: ${type}\n\n${body.replace(/\s+$/, "")}\n`);
  return CRLF(`${head}\n\n${body.join("")}--${boundary}--\n`);
}

const headersOf = (raw: string) => raw.slice(0, raw.search(/\r?\n\r?\n/) + 2);

export function gmailHardBounce(mail: Answered): string {
  return multipartReport(
    {
      From: "Mail Delivery Subsystem <mailer-daemon@googlemail.com>",
      To: mail.returnPath,
      Subject: "Delivery Status Notification (Failure)",
      "Message-ID": `<${randomUUID()}@mx.google.com>`,
      "X-Failed-Recipients": mail.recipient,
    },
    "delivery-status",
    [
      {
        type: 'text/plain; charset="UTF-8"',
        body: `Address not found\n\nYour message wasn't delivered to ${mail.recipient} because the address couldn't be found.`,
      },
      {
        type: "message/delivery-status",
        body: `Reporting-MTA: dns; googlemail.com\nArrival-Date: ${new Date().toUTCString()}\n\nFinal-Recipient: rfc822; ${mail.recipient}\nAction: failed\nStatus: 5.1.1\nRemote-MTA: dns; mx.example.org. (192.0.2.1, the server for the domain example.org.)\nDiagnostic-Code: smtp; 550-5.1.1 The mailbox you tried to reach is not there.\n 550 5.1.1 Check the address. - gsmtp\nLast-Attempt-Date: ${new Date().toUTCString()}`,
      },
      { type: "message/rfc822", body: mail.raw },
    ],
  );
}

export function outlookHardBounce(mail: Answered): string {
  return multipartReport(
    {
      From: "Microsoft Outlook <postmaster@outlook.com>",
      To: `<${mail.returnPath}>`,
      Subject: "Undeliverable: First issue",
      "Message-ID": `<${randomUUID()}@EXAMPLEPR01MB1234.outlook.com>`,
      "Content-Language": "en-US",
      "X-MS-Exchange-Message-Is-Ndr": "",
    },
    "delivery-status",
    [
      {
        type: 'text/plain; charset="us-ascii"',
        body: `Delivery has failed to these recipients or groups:\n\n${mail.recipient}\nThe address is unknown here.`,
      },
      {
        type: "message/delivery-status",
        body: `Reporting-MTA: dns;EXAMPLEPR01MB1234.outlook.com\nReceived-From-MTA: dns;mail.example.com\nArrival-Date: ${new Date().toUTCString()}\n\nFinal-Recipient: rfc822;${mail.recipient}\nAction: failed\nStatus: 5.1.10\nDiagnostic-Code: smtp;550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup`,
      },
      { type: "text/rfc822-headers", body: headersOf(mail.raw) },
    ],
  );
}

/** Postfix's report of a temporary failure it gave up on (`failed`) or still retries (`delayed`). */
export function postfixSoftBounce(mail: Answered, action: "failed" | "delayed" = "failed"): string {
  const gaveUp = action === "failed";
  return multipartReport(
    {
      From: "MAILER-DAEMON@mx.example.net (Mail Delivery System)",
      To: mail.returnPath,
      Subject: gaveUp ? "Undelivered Mail Returned to Sender" : "Delayed Mail (still being retried)",
      "Message-Id": `<${randomUUID()}@mx.example.net>`,
      "Auto-Submitted": "auto-replied",
    },
    "delivery-status",
    [
      {
        type: "text/plain; charset=us-ascii",
        body: `This is the mail system at host mx.example.net.\n\n${gaveUp ? "I'm sorry to have to inform you that your message could not\nbe delivered" : "Your message could not be delivered yet; it will be tried again"}.\n\n<${mail.recipient}>: the mailbox is full`,
      },
      {
        type: "message/delivery-status",
        body: `Reporting-MTA: dns; mx.example.net\nX-Postfix-Queue-ID: 4Xb2Yc3Zd4\nX-Postfix-Sender: rfc822; ${mail.returnPath}\nArrival-Date: ${new Date().toUTCString()}\n\nFinal-Recipient: rfc822; ${mail.recipient}\nOriginal-Recipient: rfc822;${mail.recipient}\nAction: ${action}\nStatus: 4.2.2\nRemote-MTA: dns; mail.example.org\nDiagnostic-Code: smtp; 452 4.2.2 Mailbox full${gaveUp ? "" : `\nWill-Retry-Until: ${new Date(Date.now() + 4 * 86_400_000).toUTCString()}`}`,
      },
      { type: "message/rfc822", body: mail.raw },
    ],
  );
}

/**
 * Yahoo's feedback loop: sent to the address registered with it, not to the return path. With
 * `returnPathHeader` false the copy of the original lacks its Return-Path, leaving its Message-ID.
 */
export function yahooComplaint(mail: Answered, { returnPathHeader = true } = {}): string {
  const original = returnPathHeader ? `Return-Path: <${mail.returnPath}>\r\n${mail.raw}` : mail.raw;
  return multipartReport(
    {
      From: "Yahoo! Mail AntiSpam Feedback <feedback@arf.mail.yahoo.com>",
      To: "fbl@example.com",
      Subject: "FW: First issue",
      "Message-ID": `<${randomUUID()}@arf.mail.yahoo.com>`,
    },
    "feedback-report",
    [
      { type: "text/plain", body: "This is an email abuse report for a mail received from the sending domain." },
      {
        type: "message/feedback-report",
        body: `Feedback-Type: abuse\nUser-Agent: Yahoo!-Mail-Feedback/2.0\nVersion: 0.1\nOriginal-Mail-From: <${mail.returnPath}>\nOriginal-Rcpt-To: <${mail.recipient}>\nReceived-Date: ${new Date().toUTCString()}\nReported-Domain: example.com\nAuthentication-Results: mta.yahoo.com; dkim=pass header.d=example.com`,
      },
      { type: "message/rfc822", body: original },
    ],
  );
}
