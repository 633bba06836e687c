// A sending service's report becomes the same outcome a bounce mailbox's would, applied by the same step,
// keyed by the service's own event id so that a retried post counts once.
import { createHash, type KeyObject, verify, X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { emailKey } from "../../rules/forms.ts";
import type { Config } from "../config.ts";
import type { Db, MailReportKind } from "../db/database.ts";
import { applyReport, type Delivery, deliveryOf } from "./bounces.ts";
import { RETURN_PATH, type Report } from "./reports.ts";
import { same } from "./tokens.ts";

export type MailEventSettings = Pick<
  Config,
  "secretKey" | "mailFrom" | "postmarkWebhookSecret" | "sesTopicArn" | "snsTestCertificateFile"
>;

export type MailEventAnswer = { status: 200 | 400 | 401; message: string };

/** One recipient's failure or complaint as a service reports it. */
type MailEvent = Report & { recipient: string };

const refused = (status: 400 | 401, message: string): MailEventAnswer => ({ status, message });

const problemOf = (error: z.ZodError) =>
  error.issues.map((issue) => `${issue.path.join(".") || "the body"} ${issue.message}`)[0];

async function deliveryTo(db: Db, event: MailEvent, settings: MailEventSettings): Promise<Delivery | string> {
  const email = emailKey(event.recipient);
  if (event.returnPaths.length === 0 && !event.originalMessageId) {
    const latest = await db
      .selectFrom("newsletter_deliveries")
      .innerJoin("subscribers", "subscribers.id", "newsletter_deliveries.subscriber_id")
      .select(["send_id", "subscriber_id"])
      .where("email_lower", "=", email)
      .where("newsletter_deliveries.status", "=", "sent")
      .orderBy("send_id", "desc")
      .executeTakeFirst();
    return latest ?? `no newsletter mail to ${event.recipient} is on record`;
  }
  const delivery = await deliveryOf(db, event, settings);
  if (typeof delivery === "string") return delivery;
  const subscriber = await db
    .selectFrom("subscribers")
    .select("email_lower")
    .where("id", "=", delivery.subscriber_id)
    .executeTakeFirst();
  return subscriber?.email_lower === email ? delivery : `the mail it names was not sent to ${event.recipient}`;
}

async function applyEvents(
  db: Db,
  events: MailEvent[],
  settings: MailEventSettings,
  log: (message: string) => void,
): Promise<MailEventAnswer> {
  const outcomes: string[] = [];
  for (const event of events) {
    const delivery = await deliveryTo(db, event, settings);
    if (typeof delivery === "string") {
      log(`mail event ${event.key} changed nobody: ${delivery}`);
      outcomes.push(`nobody changed: ${delivery}`);
    } else {
      outcomes.push((await applyReport(db, event, delivery, Date.now())) ? "counted" : "already counted");
    }
  }
  return { status: 200, message: outcomes.join("; ") || "nobody changed: no failure or complaint" };
}

const postmarkEvent = z.object({
  RecordType: z.enum(["Bounce", "SpamComplaint"], { message: "is neither Bounce nor SpamComplaint" }),
  ID: z.union([z.number().int(), z.string().min(1).max(100)]),
  Type: z.string().max(100),
  Email: z.string().min(1).max(320),
  Details: z.string().optional(),
  Description: z.string().optional(),
});

const POSTMARK_KINDS: Record<string, MailReportKind> = {
  HardBounce: "hard",
  SoftBounce: "soft",
  Transient: "soft",
  SpamComplaint: "complaint",
};

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/** HTTP Basic authentication whose password is POSTMARK_WEBHOOK_SECRET, compared in constant time. */
export function postmarkRefusal(settings: MailEventSettings, authorization: string | undefined): string | undefined {
  if (!settings.postmarkWebhookSecret) return "Postmark webhooks are off: POSTMARK_WEBHOOK_SECRET is not set.";
  const credentials = /^Basic +([A-Za-z0-9+/=]{1,1000})$/i.exec(authorization ?? "")?.[1] ?? "";
  const password = /^[^:]*:(.*)$/s.exec(Buffer.from(credentials, "base64").toString("utf8"))?.[1] ?? "";
  return same(digest(settings.postmarkWebhookSecret), digest(password))
    ? undefined
    : "The Basic authentication password is not POSTMARK_WEBHOOK_SECRET.";
}

export async function receivePostmarkEvent(
  db: Db,
  settings: MailEventSettings,
  input: unknown,
  log: (message: string) => void,
): Promise<MailEventAnswer> {
  const parsed = postmarkEvent.safeParse(input);
  if (!parsed.success) return refused(400, `Not a Postmark bounce or spam complaint: ${problemOf(parsed.error)}.`);
  const { ID, Type, Email, Details, Description } = parsed.data;
  const kind = POSTMARK_KINDS[Type];
  if (!kind) return { status: 200, message: `nobody changed: a ${Type} is neither a failure nor a complaint` };
  const detail = `Postmark ${Type}: ${Details || Description || ""}`;
  return applyEvents(db, [{ key: `postmark:${ID}`, kind, detail, recipient: Email, returnPaths: [] }], settings, log);
}

const snsEnvelope = z.object({
  Type: z.enum(["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"]),
  MessageId: z.string(),
  TopicArn: z.string(),
  Message: z.string(),
  Timestamp: z.string(),
  Subject: z.string().optional(),
  SubscribeURL: z.string().optional(),
  Token: z.string().optional(),
  SignatureVersion: z.enum(["1", "2"]),
  Signature: z.string().max(2000),
  SigningCertURL: z.string().max(2000),
});

type SnsEnvelope = z.infer<typeof snsEnvelope>;

/** The fields SNS signs, in this order, each as "Name\nvalue\n" (a missing Subject is left out). */
const SIGNED_FIELDS = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
} as const;

const SNS_HOST = /^sns\.[a-z0-9-]{1,40}\.amazonaws\.com$/;

/** Amazon's own https address, on no port of its own: an SNS certificate or a subscription's confirmation. */
function snsUrl(value: string | undefined): URL | undefined {
  const url = URL.parse(value ?? "");
  return url?.protocol === "https:" && SNS_HOST.test(url.host) && !url.username ? url : undefined;
}

const CACHED_CERTIFICATES = 16;
const certificates = new Map<string, Promise<KeyObject>>();

async function fetchFromSns(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url.host} answered ${response.status}`);
  return response.text();
}

/** Amazon gives a new certificate a new address, so one read per address is enough. */
function cachedPublicKey(url: URL, { snsTestCertificateFile }: MailEventSettings): Promise<KeyObject> {
  let found = certificates.get(url.href);
  if (!found) {
    const pem = snsTestCertificateFile ? readFile(snsTestCertificateFile, "utf8") : fetchFromSns(url);
    found = pem.then((text) => new X509Certificate(text).publicKey);
    found.catch(() => certificates.delete(url.href));
    certificates.set(url.href, found);
    if (certificates.size > CACHED_CERTIFICATES) certificates.delete(certificates.keys().next().value as string);
  }
  return found;
}

async function signatureProblem(envelope: SnsEnvelope, settings: MailEventSettings): Promise<string | undefined> {
  const certificateUrl = snsUrl(envelope.SigningCertURL);
  if (!certificateUrl) return "its SigningCertURL is not an https address on sns.<region>.amazonaws.com";
  let publicKey: KeyObject;
  try {
    publicKey = await cachedPublicKey(certificateUrl, settings);
  } catch (error) {
    return `its signing certificate could not be read: ${(error as Error).message}`;
  }
  const signed = SIGNED_FIELDS[envelope.Type]
    .filter((name) => envelope[name] !== undefined)
    .map((name) => `${name}\n${envelope[name]}\n`)
    .join("");
  const algorithm = envelope.SignatureVersion === "1" ? "sha1" : "sha256";
  const signature = Buffer.from(envelope.Signature, "base64");
  return verify(algorithm, Buffer.from(signed), publicKey, signature) ? undefined : "its signature does not hold";
}

const sesRecipients = z.array(z.looseObject({ emailAddress: z.string() })).max(100);

const sesNotification = z.object({
  notificationType: z.string().optional(),
  eventType: z.string().optional(),
  bounce: z
    .object({ bounceType: z.string(), feedbackId: z.string().min(1), bouncedRecipients: sesRecipients })
    .optional(),
  complaint: z.object({ feedbackId: z.string().min(1), complainedRecipients: sesRecipients }).optional(),
  mail: z.object({
    source: z.string().optional(),
    headers: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
    commonHeaders: z.object({ messageId: z.string().optional() }).optional(),
  }),
});

const SES_BOUNCES: Record<string, MailReportKind> = { Permanent: "hard", Transient: "soft" };

function sesEvents({ notificationType, eventType, bounce, complaint, mail }: z.infer<typeof sesNotification>) {
  const type = notificationType ?? eventType;
  const reported =
    type === "Bounce" && bounce
      ? { ...bounce, recipients: bounce.bouncedRecipients, kind: SES_BOUNCES[bounce.bounceType] }
      : type === "Complaint" && complaint
        ? { ...complaint, recipients: complaint.complainedRecipients, kind: "complaint" as const }
        : undefined;
  if (!reported) return `a notification of type ${type ?? "(none)"}, not a Bounce or Complaint`;
  const { feedbackId, recipients, kind } = reported;
  // "Undetermined": SES could not tell what the report meant.
  if (!kind) return [];
  const messageId = mail.headers?.find(({ name }) => name.toLowerCase() === "message-id")?.value;
  return recipients.map(
    ({ emailAddress, ...more }): MailEvent => ({
      key: `ses:${feedbackId}:${emailKey(emailAddress)}`,
      kind,
      detail: `SES ${type}: ${Object.values(more).join("; ")}`,
      recipient: emailAddress,
      returnPaths: mail.source?.match(RETURN_PATH) ?? [],
      originalMessageId: /<[^<>\s]+>/.exec(messageId ?? mail.commonHeaders?.messageId ?? "")?.[0],
    }),
  );
}

/** An SNS message from SES_TOPIC_ARN: a subscription to confirm, or SES's bounce or complaint. */
export async function receiveSesEvent(
  db: Db,
  settings: MailEventSettings,
  input: unknown,
  log: (message: string) => void,
): Promise<MailEventAnswer> {
  if (!settings.sesTopicArn) return refused(401, "SES notifications are off: SES_TOPIC_ARN is not set.");
  const parsed = snsEnvelope.safeParse(input);
  if (!parsed.success) return refused(400, `Not an SNS message: ${problemOf(parsed.error)}.`);
  const envelope = parsed.data;
  if (envelope.TopicArn !== settings.sesTopicArn)
    return refused(401, `The topic ${envelope.TopicArn} is not SES_TOPIC_ARN.`);
  const problem = await signatureProblem(envelope, settings);
  if (problem) return refused(401, `The SNS message is refused: ${problem}.`);
  if (envelope.Type === "UnsubscribeConfirmation") return { status: 200, message: "nobody changed: unsubscribed" };
  if (envelope.Type === "SubscriptionConfirmation") return confirmSubscription(envelope, log);
  let notification: unknown;
  try {
    notification = JSON.parse(envelope.Message);
  } catch {
    return refused(400, "The SNS message's Message is not JSON.");
  }
  const ses = sesNotification.safeParse(notification);
  if (!ses.success) return refused(400, `Not an SES notification: ${problemOf(ses.error)}.`);
  const events = sesEvents(ses.data);
  if (typeof events === "string") return refused(400, `The SES notification is refused: ${events}.`);
  return applyEvents(db, events, settings, log);
}

async function confirmSubscription(envelope: SnsEnvelope, log: (message: string) => void): Promise<MailEventAnswer> {
  const url = snsUrl(envelope.SubscribeURL);
  if (!url) return refused(400, "The SubscribeURL is not an https address on sns.<region>.amazonaws.com.");
  try {
    await fetchFromSns(url);
  } catch (error) {
    log(`the subscription to ${envelope.TopicArn} could not be confirmed: ${(error as Error).message}`);
    return refused(400, "The subscription could not be confirmed; SNS may send its confirmation again.");
  }
  log(`subscribed to ${envelope.TopicArn}`);
  return { status: 200, message: "subscribed" };
}
