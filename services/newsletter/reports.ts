// Bounces (RFC 3464) and complaints (RFC 5965) are read from their machine-readable MIME parts only:
// a keyword in a human's text never changes a subscriber.
import { createHash } from "node:crypto";
import { simpleParser } from "mailparser";
import type { MailReportKind } from "../db/database.ts";

export type Report = {
  key: string;
  kind: MailReportKind;
  detail: string;
  /** Every bounces+<token>@domain the report is addressed to, or its original came from. */
  returnPaths: string[];
  originalMessageId?: string;
};

type Fields = Map<string, string>;

/** A lone CR ends a line too, as some mail software writes it. */
const LINE_END = /\r\n|\r(?!\n)|\n/;
const BLANK_LINE = new RegExp(`(?:${LINE_END.source})[ \\t]*(?:${LINE_END.source})`);

/** "Name: value" lines, a line starting with a space continuing the one before. */
function fieldsOf(block: string): Fields {
  const fields: Fields = new Map();
  for (const line of block.replace(new RegExp(`(?:${LINE_END.source})[ \\t]+`, "g"), " ").split(LINE_END)) {
    const field = /^([!-9;-~]+):[ \t]*(.*)$/.exec(line);
    if (field?.[1] && field[2] !== undefined) fields.set(field[1].toLowerCase(), field[2].trim());
  }
  return fields;
}

export const RETURN_PATH = /\bbounces\+[^@\s<>"]*@[^\s<>",;]+/gi;
const RECIPIENT_HEADERS = new Set(["to", "delivered-to", "x-original-to", "envelope-to"]);

/** A delivery status's per-recipient outcome; nothing for a success. */
function bounceOf(recipient: Fields): Pick<Report, "kind" | "detail"> | string {
  const action = recipient.get("action")?.toLowerCase();
  const status = /^([245])\.\d{1,3}\.\d{1,3}\b/.exec(recipient.get("status") ?? "");
  const detail = ["final-recipient", "status", "diagnostic-code"]
    .map((name) => recipient.get(name))
    .filter(Boolean)
    .join("; ");
  if (action === "delayed") return { kind: "delayed", detail };
  if (action !== "failed") return `a delivery report with Action: ${action ?? "(none)"}, not a failure`;
  if (status?.[1] === "5") return { kind: "hard", detail };
  if (status?.[1] === "4") return { kind: "soft", detail };
  return "a failed delivery without a 4.x.x or 5.x.x Status";
}

export async function readReport(raw: Buffer): Promise<Report | string> {
  const mail = await simpleParser(raw, {
    keepDeliveryStatus: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  const type = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  const part = (...types: string[]) =>
    mail.attachments.find((attachment) => types.includes(attachment.contentType))?.content.toString("utf8");
  const original = part("message/rfc822", "text/rfc822-headers", "message/global", "message/global-headers");
  const originalFields = fieldsOf(original?.split(BLANK_LINE, 1)[0] ?? "");
  const addressedTo = mail.headerLines
    .filter((header) => RECIPIENT_HEADERS.has(header.key))
    .map((header) => header.line)
    .concat(originalFields.get("return-path") ?? "");
  const found = {
    key: mail.messageId ?? `sha256:${createHash("sha256").update(raw).digest("hex")}`,
    returnPaths: addressedTo.flatMap((line) => line.match(RETURN_PATH) ?? []),
    originalMessageId: /<[^<>\s]+>/.exec(originalFields.get("message-id") ?? "")?.[0],
  };

  if (type?.value !== "multipart/report") return "not a delivery or abuse report (multipart/report)";
  const reportType = type.params?.["report-type"]?.toLowerCase();
  if (reportType === "delivery-status") {
    const status = part("message/delivery-status", "message/global-delivery-status");
    if (status === undefined) return "a delivery report without its message/delivery-status part";
    const recipients = status
      .trim()
      .split(BLANK_LINE)
      .slice(1)
      .map(fieldsOf)
      .filter((fields) => fields.has("action"));
    const outcomes = recipients.map(bounceOf);
    const outcome = outcomes.find((each) => typeof each !== "string") ?? outcomes[0] ?? "no recipient in the report";
    return typeof outcome === "string" ? outcome : { ...found, ...outcome };
  }
  if (reportType === "feedback-report") {
    const feedback = fieldsOf(part("message/feedback-report") ?? "");
    const kind = feedback.get("feedback-type")?.toLowerCase();
    if (kind !== "abuse") return `a feedback report of type ${kind ?? "(none)"}, not a complaint`;
    return { ...found, kind: "complaint", detail: feedback.get("user-agent") ?? "abuse report" };
  }
  return `a report of type ${reportType ?? "(none)"}`;
}
