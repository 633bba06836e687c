/**
 * Sending a newsletter issue (issue 13 §5–6, DESIGN §9.2). `freezeSend` stores the issue's mail
 * and one delivery row per subscriber confirmed at that moment, in one transaction. The worker
 * delivers those rows with the outbox design of server/outbox.ts:
 *
 * 1. Claim a batch: one UPDATE takes up to `batch` due pending rows, counts an attempt, stamps a
 *    claim token and a lease (renewed every third of it while the worker is alive), so a worker
 *    that dies gives its rows back within one lease, and two workers never hold the same row (on
 *    PostgreSQL the inner SELECT skips rows another instance is claiming: FOR UPDATE SKIP LOCKED).
 * 2. Pace: with a rate, one UPDATE of the single pacing row reserves the next slots, so every
 *    process together (the server and `npm run newsletter -- send`) stays under NEWSLETTER_RATE.
 * 3. Per row: a subscriber who is no longer `confirmed` (unsubscribed meanwhile) is `skipped`;
 *    otherwise the mail goes out with the Message-ID chosen at freeze time and its own unsubscribe
 *    link. Accepted: `sent`. A 5xx reply: the delivery and the subscriber are `bounced`, never
 *    retried. Anything else: back-off, as for contact messages.
 *
 * Exactly once per recipient: a row is `sent` right after the SMTP server's 250, and a crash
 * before that resends it with the same Message-ID (the window described in server/outbox.ts).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { type Selectable, sql } from "kysely";
import {
  type Db,
  type DeliveryStatus,
  type NewsletterSendsTable,
  nextPendingDue,
  skipLockedOnPostgres,
} from "../db/database.ts";
import { backoffDelay, isPermanentRejection } from "../mail/outbox.ts";
import { createPollingLoop } from "../mail/polling-loop.ts";
import type { Mailer } from "../mail/transport.ts";
import { issueMail, listUnsubscribeHeaders, unsubscribeUrl } from "./mail.ts";
import { unsubscribeToken } from "./tokens.ts";

export type NewsletterSend = Selectable<NewsletterSendsTable>;

export type IssueToSend = {
  slug: string;
  subject: string;
  bodyHtml: string;
  bodyText: string;
  issueUrl: string;
  siteName: string;
};

export class AlreadySentError extends Error {
  name = "AlreadySentError";
}

/**
 * Stores the send and its recipients (every `confirmed` subscriber now), one transaction.
 * Refuses an issue sent before unless `again`.
 */
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
      throw new AlreadySentError(`"${issue.slug}" was already sent (send #${earlier.id}, ${earlier.created_at}).`);
    }
    const send = await trx
      .insertInto("newsletter_sends")
      .values({
        slug: issue.slug,
        subject: issue.subject,
        body_html: issue.bodyHtml,
        body_text: issue.bodyText,
        issue_url: issue.issueUrl,
        site_name: issue.siteName,
        created_at: new Date(now).toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // One statement for every recipient: 10,000 rows in milliseconds. The Message-ID is fixed here.
    const salt = randomBytes(6).toString("hex");
    const inserted = await sql`
      INSERT INTO newsletter_deliveries (send_id, subscriber_id, message_id, status, next_attempt_at)
      SELECT CAST(${send.id} AS INTEGER), id, '<newsletter.' || CAST(${send.id} AS INTEGER) || '.' || id || '.' || CAST(${salt} AS TEXT) || '@' || CAST(${messageIdDomain} AS TEXT) || '>', 'pending', CAST(${now} AS BIGINT)
      FROM subscribers WHERE status = 'confirmed' ORDER BY id`.execute(trx);
    return { send, recipients: Number(inserted.numAffectedRows ?? 0n) };
  });
}

export type SendProgress = {
  send: Pick<NewsletterSend, "id" | "slug" | "subject" | "created_at">;
  total: number;
} & Record<DeliveryStatus, number>;

export async function sendProgress(db: Db, sendId?: number): Promise<SendProgress[]> {
  let sends = db.selectFrom("newsletter_sends").select(["id", "slug", "subject", "created_at"]).orderBy("id");
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

export type NewsletterWorkerOptions = {
  secretKey: string;
  siteUrl: string;
  /** Mails per minute for all processes together; 0: as fast as the SMTP server takes them. */
  rate: number;
  /** Deliveries claimed at once. */
  batch: number;
  leaseMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  pollIntervalMs: number;
  now: () => number;
  log: (message: string, error?: unknown) => void;
};

export const DEFAULT_NEWSLETTER_WORKER = {
  rate: 60,
  batch: 20,
  leaseMs: 15_000,
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60 * 1000,
  pollIntervalMs: 5000,
  now: Date.now,
  log: (message: string, error?: unknown) => console.error(`[newsletter] ${message}`, error ?? ""),
} satisfies Partial<NewsletterWorkerOptions>;

export type NewsletterWorker = {
  /** Starts delivering, first whatever an earlier process left pending. */
  start(): void;
  /**
   * Stops after the mail in flight; the rows claimed but not started are given back at once,
   * so another process (the server's worker) delivers them without waiting for the lease.
   */
  stop(): Promise<void>;
  nudge(): void;
  /** Delivers every due row now, batch by batch; resolves with how many were sent. For tests and scripts. */
  deliverDue(): Promise<number>;
  readonly running: boolean;
};

type Claimed = { id: number; send_id: number; subscriber_id: number; message_id: string; attempts: number };

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 1000);
}

/** Waits until `time`, looking every quarter second whether the worker is being stopped. */
async function waitUntil(time: number, now: () => number, keepGoing: () => boolean) {
  for (let left = time - now(); left > 0 && keepGoing(); left = time - now()) {
    await new Promise((done) => setTimeout(done, Math.min(left, 250)));
  }
}

export function createNewsletterWorker(
  db: Db,
  mailer: Mailer,
  options: Pick<NewsletterWorkerOptions, "secretKey" | "siteUrl"> & Partial<NewsletterWorkerOptions>,
): NewsletterWorker {
  const settings: NewsletterWorkerOptions = { ...DEFAULT_NEWSLETTER_WORKER, ...options };
  const { now, log } = settings;
  const sends = new Map<number, NewsletterSend>();

  async function claimBatch(token: string): Promise<Claimed[]> {
    const time = now();
    const rows = await db
      .updateTable("newsletter_deliveries")
      .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: time + settings.leaseMs, claim_token: token }))
      .where("id", "in", (eb) =>
        eb
          .selectFrom("newsletter_deliveries")
          .select("id")
          .where("status", "=", "pending")
          .where("next_attempt_at", "<=", time)
          .orderBy("next_attempt_at")
          .orderBy("id")
          .limit(settings.batch)
          .$call(skipLockedOnPostgres(db)),
      )
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", time)
      .returning(["id", "send_id", "subscriber_id", "message_id", "attempts"])
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  }

  /** The start of each of `count` slots under the shared rate (all at once when unlimited). */
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

  function renewWhileWorking(token: string) {
    const renewal = setInterval(() => {
      void db
        .updateTable("newsletter_deliveries")
        .set({ next_attempt_at: now() + settings.leaseMs })
        .where("claim_token", "=", token)
        .where("status", "=", "pending")
        .execute()
        .catch((error: unknown) => log("lease renewal failed", error));
    }, settings.leaseMs / 3);
    renewal.unref();
    return () => clearInterval(renewal);
  }

  async function sendOf(id: number): Promise<NewsletterSend> {
    let send = sends.get(id);
    if (!send) {
      send = await db.selectFrom("newsletter_sends").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      sends.set(id, send);
    }
    return send;
  }

  /** Records the outcome of a row we still hold; a row taken over by another worker is left alone. */
  async function finish(row: Claimed, token: string, values: Record<string, unknown>) {
    await db
      .updateTable("newsletter_deliveries")
      .set({ claim_token: null, ...values })
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .where("claim_token", "=", token)
      .execute();
  }

  async function deliver(row: Claimed, token: string): Promise<boolean> {
    const subscriber = await db
      .selectFrom("subscribers")
      .select(["id", "email", "email_lower", "status"])
      .where("id", "=", row.subscriber_id)
      .executeTakeFirst();
    if (subscriber?.status !== "confirmed") {
      await finish(row, token, { status: "skipped" });
      return false;
    }
    const send = await sendOf(row.send_id);
    const link = unsubscribeUrl(settings.siteUrl, unsubscribeToken(settings.secretKey, subscriber));
    const mail = issueMail(
      {
        title: send.subject,
        bodyHtml: send.body_html,
        bodyText: send.body_text,
        issueUrl: send.issue_url,
        siteName: send.site_name,
        siteUrl: settings.siteUrl,
      },
      link,
    );
    try {
      await mailer.deliver({
        messageId: row.message_id,
        date: new Date(send.created_at),
        to: subscriber.email,
        fromName: send.site_name,
        subject: send.subject,
        text: mail.text,
        html: mail.html,
        headers: listUnsubscribeHeaders(link),
      });
    } catch (error) {
      if (isPermanentRejection(error)) {
        log(`delivery ${row.id} refused for good; subscriber ${subscriber.id} marked bounced: ${errorText(error)}`);
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable("newsletter_deliveries")
            .set({ status: "bounced", claim_token: null, last_error: errorText(error) })
            .where("id", "=", row.id)
            .where("status", "=", "pending")
            .execute();
          await trx
            .updateTable("subscribers")
            .set({ status: "bounced" })
            .where("id", "=", subscriber.id)
            .where("status", "=", "confirmed")
            .execute();
        });
        return false;
      }
      const delay = backoffDelay(row.attempts, settings);
      log(`delivery ${row.id} attempt ${row.attempts} failed; next attempt in ${delay} ms`, errorText(error));
      await finish(row, token, { next_attempt_at: now() + delay, last_error: errorText(error) });
      return false;
    }
    // Accepted: record it at once (the crash window of server/outbox.ts).
    await db
      .updateTable("newsletter_deliveries")
      .set({ status: "sent", sent_at: new Date(now()).toISOString(), last_error: null, claim_token: null })
      .where("id", "=", row.id)
      .execute();
    return true;
  }

  async function deliverDue(keepGoing: () => boolean = () => true): Promise<number> {
    let sent = 0;
    while (keepGoing()) {
      const token = randomUUID();
      const rows = await claimBatch(token);
      if (rows.length === 0) break;
      const stopRenewing = renewWhileWorking(token);
      try {
        const slots = await reserveSlots(rows.length);
        for (const [index, row] of rows.entries()) {
          if (!keepGoing()) break;
          await waitUntil(slots[index] ?? 0, now, keepGoing);
          if (!keepGoing()) break;
          if (await deliver(row, token)) sent++;
        }
      } finally {
        stopRenewing();
        // Rows we claimed but did not start go back at once (a stop, or an error mid-batch).
        await db
          .updateTable("newsletter_deliveries")
          .set({ claim_token: null, next_attempt_at: now() })
          .where("claim_token", "=", token)
          .where("status", "=", "pending")
          .execute();
      }
    }
    return sent;
  }

  const loop = createPollingLoop({
    round: async (keepGoing) => {
      await deliverDue(keepGoing);
    },
    nextDue: () => nextPendingDue(db, "newsletter_deliveries"),
    now,
    pollIntervalMs: settings.pollIntervalMs,
    log,
  });

  return {
    start: loop.start,
    stop: loop.stop,
    nudge: loop.nudge,
    deliverDue: () => deliverDue(),
    get running() {
      return loop.running;
    },
  };
}
