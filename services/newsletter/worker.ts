// A refusal of our sender or of the issue's mail pauses the whole send: every recipient would meet the
// same answer. More than half of the last 20 deliveries bounced pauses it too: rarely 20 bad addresses.
// Complaints above Gmail's 0.3% or hard bounces above 5% pause it as well, before the sender's name suffers.
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { type Selectable, sql } from "kysely";
import { type Config, DEFAULT_NEWSLETTER_RATE } from "../config.ts";
import type { Db, DeliveryStatus, NewsletterDeliveriesTable, NewsletterSendsTable } from "../db/database.ts";
import {
  createMailQueue,
  DEFAULT_QUEUE_TIMING,
  errorText,
  type MailQueue,
  type QueueTiming,
  refusalOf,
} from "../mail/queue.ts";
import { createMailer, type Mailer } from "../mail/transport.ts";
import { type IssueToSend, Refusal } from "./issue.ts";
import { issueMail, unsubscribeUrl } from "./mail.ts";
import { returnPathToken, unsubscribeToken } from "./tokens.ts";

export type NewsletterSend = Selectable<NewsletterSendsTable>;

type Delivery = Selectable<NewsletterDeliveriesTable>;

/** The issue's mail as a send keeps it, so that every delivery of it is the same mail. */
export const frozenIssue = (issue: IssueToSend) => ({
  slug: issue.slug,
  subject: issue.subject,
  body_html: issue.bodyHtml,
  body_text: issue.bodyText,
  issue_url: issue.issueUrl,
  site_name: issue.siteName,
});

export async function freezeSend(
  db: Db,
  issue: IssueToSend,
  { messageIdDomain, again = false, now = Date.now() }: { messageIdDomain: string; again?: boolean; now?: number },
): Promise<{ send: NewsletterSend; recipients: number }> {
  return db.transaction().execute(async (trx) => {
    const earlier = await trx
      .selectFrom("newsletter_sends")
      .select(["id", "created_at"])
      .where("slug", "=", issue.slug)
      .executeTakeFirst();
    if (earlier && !again) {
      throw new Refusal(
        `"${issue.slug}" was already sent (send #${earlier.id}, ${earlier.created_at}). Add --again to send it once more.`,
      );
    }
    const send = await trx
      .insertInto("newsletter_sends")
      .values({ ...frozenIssue(issue), created_at: new Date(now).toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow();
    // One statement for every recipient: 10,000 rows in milliseconds.
    const salt = randomBytes(6).toString("hex");
    const inserted = await sql`
      INSERT INTO newsletter_deliveries (send_id, subscriber_id, message_id, status, next_attempt_at)
      SELECT CAST(${send.id} AS INTEGER), id, '<newsletter.' || CAST(${send.id} AS INTEGER) || '.' || id || '.' || CAST(${salt} AS TEXT) || '@' || CAST(${messageIdDomain} AS TEXT) || '>', 'pending', CAST(${now} AS BIGINT)
      FROM subscribers WHERE status = 'confirmed' ORDER BY id`.execute(trx);
    return { send, recipients: Number(inserted.numAffectedRows ?? 0n) };
  });
}

export type SendProgress = {
  send: Pick<NewsletterSend, "id" | "slug" | "subject" | "created_at" | "paused_at" | "pause_reason">;
  total: number;
} & Record<DeliveryStatus, number>;

export async function sendProgress(db: Db, sendId?: number): Promise<SendProgress[]> {
  let sends = db
    .selectFrom("newsletter_sends")
    .select(["id", "slug", "subject", "created_at", "paused_at", "pause_reason"])
    .orderBy("id");
  if (sendId !== undefined) sends = sends.where("id", "=", sendId);
  const rows = await sends.execute();
  const counts = await db
    .selectFrom("newsletter_deliveries")
    .select(["send_id", "status", (eb) => eb.fn.countAll<number>().as("count")])
    .groupBy(["send_id", "status"])
    .execute();
  return rows.map((send) => {
    const progress: SendProgress = { send, total: 0, pending: 0, sent: 0, bounced: 0, skipped: 0 };
    for (const count of counts) {
      if (count.send_id !== send.id) continue;
      progress[count.status] = Number(count.count);
      progress.total += Number(count.count);
    }
    return progress;
  });
}

export type SendFigures = SendProgress & { hard: number; soft: number; complaints: number; unsubscribed: number };

/** Later reports count once per subscriber; an unsubscribe counts for the last mail its subscriber got before it. */
export async function sendFigures(db: Db, sendId?: number): Promise<SendFigures[]> {
  const reports = await db
    .selectFrom("mail_reports")
    .select(["send_id", "kind", (eb) => eb.fn.count<number>("subscriber_id").distinct().as("count")])
    .$if(sendId !== undefined, (query) => query.where("send_id", "=", sendId as number))
    .groupBy(["send_id", "kind"])
    .execute();
  const unsubscribed = await sql<{ send_id: number; count: number }>`
    SELECT d.send_id, count(*) AS count FROM newsletter_deliveries d JOIN subscribers s ON s.id = d.subscriber_id
    WHERE s.status = 'unsubscribed' AND d.sent_at <= s.unsubscribed_at ${sendId === undefined ? sql`` : sql`AND d.send_id = ${sendId}`}
    AND NOT EXISTS (SELECT 1 FROM newsletter_deliveries later WHERE later.subscriber_id = d.subscriber_id
      AND later.sent_at > d.sent_at AND later.sent_at <= s.unsubscribed_at)
    AND NOT EXISTS (SELECT 1 FROM mail_reports r WHERE r.subscriber_id = d.subscriber_id AND r.kind = 'complaint')
    GROUP BY d.send_id`.execute(db);
  return (await sendProgress(db, sendId)).map((progress) => {
    const reported = (kind: string) =>
      Number(reports.find((row) => row.send_id === progress.send.id && row.kind === kind)?.count ?? 0);
    return {
      ...progress,
      hard: progress.bounced + reported("hard"),
      soft: reported("soft"),
      complaints: reported("complaint"),
      unsubscribed: Number(unsubscribed.rows.find((row) => row.send_id === progress.send.id)?.count ?? 0),
    };
  });
}

const resumeHint = (sendId: number) => `fix it, then: npm run newsletter -- resume ${sendId}`;

export const COMPLAINT_LINE = 0.003;
const HARD_BOUNCE_LINE = 0.05;
const JUDGED_FROM = 20;

export const percent = (part: number, whole: number) => `${((part / Math.max(whole, 1)) * 100).toFixed(1)}%`;

/**
 * Pauses the send when complaints or hard bounces pass their line, judged from its 20th delivery on.
 * `reaching`: judged only as the 20th is delivered, so a resumed send is judged again by new reports alone.
 */
export async function judgeSend(db: Db, sendId: number, now: number, { reaching = false } = {}) {
  const [figures] = await sendFigures(db, sendId);
  if (!figures) return;
  const { sent: delivered, complaints, hard } = figures;
  if (reaching ? delivered !== JUDGED_FROM : delivered < JUDGED_FROM) return;
  const over =
    complaints / delivered > COMPLAINT_LINE
      ? `complaints from ${complaints} of ${delivered} delivered (${percent(complaints, delivered)}) passed the 0.3% Gmail allows`
      : hard / delivered > HARD_BOUNCE_LINE
        ? `hard bounces from ${hard} of ${delivered} delivered (${percent(hard, delivered)}) passed 5%: the list holds dead addresses`
        : undefined;
  if (over) await pauseSend(db, sendId, `${over}; ${resumeHint(sendId)}`, now);
}

/** A paused send keeps its first reason. */
export async function pauseSend(db: Db, sendId: number, reason: string, now = Date.now()) {
  await db
    .updateTable("newsletter_sends")
    .set({ paused_at: new Date(now).toISOString(), pause_reason: reason })
    .where("id", "=", sendId)
    .where("paused_at", "is", null)
    .execute();
}

export async function resumeSend(db: Db, sendId: number, now = Date.now()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const resumed = await trx
      .updateTable("newsletter_sends")
      .set({ paused_at: null, pause_reason: null })
      .where("id", "=", sendId)
      .where("paused_at", "is not", null)
      .executeTakeFirst();
    if (resumed.numUpdatedRows !== 1n) return false;
    await trx
      .updateTable("newsletter_deliveries")
      .set({ next_attempt_at: now })
      .where("send_id", "=", sendId)
      .where("status", "=", "pending")
      .execute();
    return true;
  });
}

export type NewsletterWorkerOptions = QueueTiming & ReturnType<typeof workerSettingsOf>;

const BREAKER_WINDOW = 20;

type WorkerOptions = Pick<NewsletterWorkerOptions, "secretKey" | "siteUrl"> & Partial<NewsletterWorkerOptions>;

export function createNewsletterWorker(db: Db, mailer: Mailer, options: WorkerOptions): MailQueue {
  const settings: NewsletterWorkerOptions = {
    ...DEFAULT_QUEUE_TIMING,
    rate: DEFAULT_NEWSLETTER_RATE,
    batch: 20,
    log: (message, error) => console.error(`[newsletter] ${message}`, error ?? ""),
    ...options,
  };
  const { now, log } = settings;
  const sends = new Map<number, NewsletterSend>();
  const recent = new Map<number, { row: Delivery; bounced: boolean }[]>();
  const deliveredHere = new Map<number, number>();

  async function reserveSlots(count: number): Promise<number[]> {
    const time = now();
    if (settings.rate <= 0) return Array(count).fill(time);
    const interval = 60_000 / settings.rate;
    const row = await db
      .updateTable("newsletter_pacing")
      // CASE rather than max()/greatest(): the one spelling both SQLite and PostgreSQL know.
      .set({
        next_slot_at: sql<number>`CASE WHEN next_slot_at > ${time} THEN next_slot_at ELSE ${time} END + ${Math.ceil(count * interval)}`,
      })
      .where("id", "=", 1)
      .returning("next_slot_at")
      .executeTakeFirstOrThrow();
    const first = row.next_slot_at - Math.ceil(count * interval);
    return Array.from({ length: count }, (_, index) => first + index * interval);
  }

  async function sendOf(id: number): Promise<NewsletterSend> {
    if (!sends.has(id)) {
      sends.set(id, await db.selectFrom("newsletter_sends").selectAll().where("id", "=", id).executeTakeFirstOrThrow());
    }
    return sends.get(id) as NewsletterSend;
  }

  /** The bounced deliveries of the send's recent window, once they are too many. */
  function remember(row: Delivery, bounced: boolean): Delivery[] | undefined {
    const window = [...(recent.get(row.send_id) ?? []), { row, bounced }].slice(-BREAKER_WINDOW);
    recent.set(row.send_id, window);
    const refused = window.filter((entry) => entry.bounced).map((entry) => entry.row);
    if (refused.length <= BREAKER_WINDOW / 2) return undefined;
    recent.delete(row.send_id);
    return refused;
  }

  async function bounce(trx: Db, row: Delivery, error: unknown) {
    await trx
      .updateTable("subscribers")
      .set({ status: "bounced" })
      .where("id", "=", row.subscriber_id)
      .where("status", "=", "confirmed")
      .execute();
    const takenBack = remember(row, true);
    if (!takenBack) return judgeSend(trx, row.send_id, now());
    const reason = `${takenBack.length} of the last ${BREAKER_WINDOW} deliveries were refused for good, almost never a run of bad addresses; their subscribers were left as they were (the last refusal: ${errorText(error)}); ${resumeHint(row.send_id)}`;
    log(`send ${row.send_id} paused: ${reason}`);
    await pauseSend(trx, row.send_id, reason, now());
    const deliveries = takenBack.map((delivery) => delivery.id);
    const subscribers = takenBack.map((delivery) => delivery.subscriber_id);
    await trx
      .updateTable("newsletter_deliveries")
      .set({ status: "pending", next_attempt_at: now() })
      .where("id", "in", deliveries)
      .where("status", "=", "bounced")
      .execute();
    await trx
      .updateTable("subscribers")
      .set({ status: "confirmed" })
      .where("id", "in", subscribers)
      .where("status", "=", "bounced")
      .execute();
  }

  return createMailQueue<Delivery>(
    db,
    {
      table: "newsletter_deliveries",
      noun: "delivery",
      batch: settings.batch,
      claimable: sql<boolean>`send_id NOT IN (SELECT id FROM newsletter_sends WHERE paused_at IS NOT NULL)`,
      pace: reserveSlots,
      async deliver(row) {
        const subscriber = await db
          .selectFrom("subscribers")
          .select(["id", "email", "email_lower", "status"])
          .select((eb) =>
            eb.selectFrom("newsletter_sends").select("paused_at").where("id", "=", row.send_id).as("send_paused_at"),
          )
          .where("id", "=", row.subscriber_id)
          .executeTakeFirst();
        if (subscriber?.status !== "confirmed") return { final: "skipped" };
        // Paused meanwhile (by another process, or earlier in this batch).
        if (subscriber.send_paused_at) return { hold: `send paused at ${subscriber.send_paused_at}` };
        const send = await sendOf(row.send_id);
        const link = unsubscribeUrl(settings.siteUrl, unsubscribeToken(settings.secretKey, subscriber));
        const issue = {
          slug: send.slug,
          subject: send.subject,
          bodyHtml: send.body_html,
          bodyText: send.body_text,
          issueUrl: send.issue_url,
          siteName: send.site_name,
        };
        try {
          await mailer.deliver({
            ...issueMail(issue, settings.siteUrl, link),
            messageId: row.message_id,
            date: new Date(send.created_at),
            to: subscriber.email,
            returnPathToken: returnPathToken(settings.secretKey, row.send_id, subscriber.id),
          });
        } catch (error) {
          const refusal = refusalOf(error);
          if (refusal === "recipient") {
            log(`delivery ${row.id} refused for good; subscriber ${subscriber.id} marked bounced: ${errorText(error)}`);
            return { final: "bounced", error, alongside: (trx) => bounce(trx, row, error) };
          }
          if (refusal) {
            const what = refusal === "sender" ? "our sender (MAIL_FROM or the SMTP account)" : "the issue's mail";
            const reason = `the SMTP server refused ${what}, so every recipient would be refused alike: ${errorText(error)}; ${resumeHint(row.send_id)}`;
            log(`send ${row.send_id} paused: ${reason}`);
            await pauseSend(db, row.send_id, reason, now());
            return { hold: error };
          }
          return { retry: error };
        }
        remember(row, false);
        const count = (deliveredHere.get(row.send_id) ?? 0) + 1;
        deliveredHere.set(row.send_id, count);
        if (count > JUDGED_FROM) return { sent: true };
        return { sent: true, afterward: () => judgeSend(db, row.send_id, now(), { reaching: true }) };
      },
    },
    settings,
  );
}

export const workerSettingsOf = (config: Config) => ({
  secretKey: config.secretKey,
  siteUrl: config.siteUrl,
  rate: config.newsletterRate,
  batch: config.newsletterBatch,
});

/** Delivers from this process until the send is done or paused, yielding its progress twice a second. */
export async function* deliverSend(db: Db, config: Config, sendId: number, log: QueueTiming["log"]) {
  const mailer = createMailer(config, { pool: true });
  const worker = createNewsletterWorker(db, mailer, { ...workerSettingsOf(config), log });
  worker.start();
  try {
    for (;;) {
      const [progress] = (await sendProgress(db, sendId)) as [SendProgress];
      yield progress;
      if (progress.pending === 0 || progress.send.paused_at) return;
      await sleep(500);
    }
  } finally {
    await worker.stop();
    mailer.close();
  }
}
