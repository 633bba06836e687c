/**
 * The outbox (API2, DESIGN §6): a contact message is a row in `messages`, committed before the
 * visitor gets 202; a worker in the server process delivers the pending rows.
 *
 * Delivery, one message at a time:
 * 1. Claim: one UPDATE picks the oldest due pending row, counts the attempt, stamps a fresh claim
 *    token and moves `next_attempt_at` one lease ahead. SQLite runs the statement under its write
 *    lock, so two ticks or two processes can never claim the same row at once; on PostgreSQL the
 *    inner SELECT locks its row and skips rows other instances are claiming (FOR UPDATE SKIP
 *    LOCKED), so N instances claim N different rows at once.
 * 2. Send through the mailer (SMTP or .eml file), with the Message-ID stored at insert.
 * 3. Success: one UPDATE marks the row sent. A 5xx reply marks it `failed` (a dead letter, logged
 *    once, never retried by itself). Other failures: one UPDATE (only if the claim is still ours)
 *    schedules the next attempt after an exponential back-off (1 s doubling up to 5 min by
 *    default) and records the error. The schedule lives in the database, so it survives restarts.
 *
 * The claim is a short lease (15 s by default) that the worker renews every third of it while its
 * SMTP transaction is alive, so a slow but alive send is never overtaken, and a worker that dies
 * (SIGKILL, power cut) gives the row back within one lease: the next worker (after a restart, or
 * another process) sends it again with the same Message-ID.
 * Duplicates cannot be ruled out with SMTP: if the process dies after the SMTP server accepted
 * the mail (its 250 reply) and before step 3 commits, the message is sent again. That window is
 * the time between the server's 250 and our UPDATE (milliseconds), plus, for a server that
 * queued the mail but whose 250 never reached us (a connection lost at the end of DATA), the
 * whole final reply. No sender can close it without the receiver's help; the stable Message-ID
 * lets mail software recognise the duplicate.
 */
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import { normalizeContact } from "../../rules/forms.ts";
import { type Db, type MessagesTable, nextPendingDue, skipLockedOnPostgres } from "../db/database.ts";
import { createPollingLoop } from "./polling-loop.ts";
import type { Mailer } from "./transport.ts";

export type OutboxOptions = {
  /** First retry delay; each further failure doubles it. */
  baseDelayMs: number;
  /** The longest delay between two attempts. */
  maxDelayMs: number;
  /** How long a claim holds a message unless renewed: renewed every third of it while sending. */
  leaseMs: number;
  /** How often an idle worker looks for due messages (also picks up rows of other processes). */
  pollIntervalMs: number;
  /** Delivered messages are deleted this long after delivery (MESSAGE_RETENTION_DAYS). */
  retentionMs: number;
  /** Host part of generated Message-IDs. */
  messageIdDomain: string;
  now: () => number;
  log: (message: string, error?: unknown) => void;
};

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60 * 1000,
  leaseMs: 15_000,
  pollIntervalMs: 5000,
  retentionMs: 90 * 24 * 60 * 60 * 1000,
  messageIdDomain: "localhost",
  now: Date.now,
  log: (message, error) => console.error(`[outbox] ${message}`, error ?? ""),
};

export type NewMessage = { email: string; subject: string; body: string };

/** A mail to a subscriber (the double opt-in confirmation), delivered like a contact message. */
export type NewConfirmation = { kind: "confirmation"; email: string; subject: string; body: string };

/**
 * Stores a confirmation mail as pending; `db` may be a transaction, so the subscriber and their
 * mail are committed together. The worker sends it at its next round (call `nudge()` after commit).
 */
export async function insertConfirmation(
  db: Db,
  mail: NewConfirmation,
  { messageIdDomain, now }: { messageIdDomain: string; now: number },
) {
  await db
    .insertInto("messages")
    .values({
      message_id: `<${randomUUID()}@${messageIdDomain}>`,
      kind: "confirmation",
      email: mail.email,
      subject: mail.subject,
      body: mail.body,
      created_at: new Date(now).toISOString(),
      status: "pending",
      next_attempt_at: now,
    })
    .execute();
}

export type Outbox = {
  /** Stores a (validated) message as pending and nudges the worker; resolves once committed. */
  enqueue(message: NewMessage): Promise<{ id: number; messageId: string }>;
  /** Starts the worker; it first delivers whatever is pending (e.g. from before a restart). */
  start(): void;
  /** Stops the worker; resolves once an attempt in flight has finished and been recorded. */
  stop(): Promise<void>;
  /** Asks a running worker to look for due messages now. */
  nudge(): void;
  /** Delivers the messages due now, one by one; resolves with how many were sent. For tests and scripts. */
  deliverDue(): Promise<number>;
  /** Deletes the messages delivered longer ago than the retention (each worker round does it too). */
  deleteExpired(): Promise<number>;
  readonly running: boolean;
};

/**
 * A 5xx SMTP reply (nodemailer's `responseCode`) refuses the message for good: retrying cannot
 * change the answer. 4xx replies, connection errors and timeouts are transient.
 */
export function isPermanentRejection(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/** The delay before attempt n + 1 after n failed attempts (n ≥ 1). */
export function backoffDelay(failedAttempts: number, options: Pick<OutboxOptions, "baseDelayMs" | "maxDelayMs">) {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 40);
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
}

/** A domain suitable for Message-IDs, from the sender address. */
export function messageIdDomainOf(address: string): string {
  const domain = address.slice(address.lastIndexOf("@") + 1).replace(/[^A-Za-z0-9.-]/g, "");
  return domain || "localhost";
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 1000);
}

export function createOutbox(db: Db, mailer: Mailer, options: Partial<OutboxOptions> = {}): Outbox {
  const settings: OutboxOptions = { ...DEFAULT_OUTBOX_OPTIONS, ...options };
  const { now, log } = settings;

  type Row = Selectable<MessagesTable>;

  async function claimNext(): Promise<(Row & { claim_token: string }) | undefined> {
    const time = now();
    const token = randomUUID();
    const row = await db
      .updateTable("messages")
      .set((eb) => ({
        attempts: eb("attempts", "+", 1),
        next_attempt_at: time + settings.leaseMs,
        claim_token: token,
      }))
      .where("id", "=", (eb) =>
        eb
          .selectFrom("messages")
          .select("id")
          .where("status", "=", "pending")
          .where("next_attempt_at", "<=", time)
          .orderBy("next_attempt_at")
          .orderBy("id")
          .limit(1)
          .$call(skipLockedOnPostgres(db)),
      )
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", time)
      .returningAll()
      .executeTakeFirst();
    return row ? { ...row, claim_token: token } : undefined;
  }

  /** Pushes the lease ahead while our SMTP transaction is alive (a dead worker stops renewing). */
  function renewWhileSending(row: Row & { claim_token: string }) {
    const renewal = setInterval(() => {
      void db
        .updateTable("messages")
        .set({ next_attempt_at: now() + settings.leaseMs })
        .where("id", "=", row.id)
        .where("status", "=", "pending")
        .where("claim_token", "=", row.claim_token)
        .execute()
        .catch((error: unknown) => log(`message ${row.id}: lease renewal failed`, error));
    }, settings.leaseMs / 3);
    renewal.unref();
    return () => clearInterval(renewal);
  }

  async function attempt(row: Row & { claim_token: string }): Promise<boolean> {
    const stopRenewing = renewWhileSending(row);
    try {
      const recipient = row.kind === "confirmation" ? { to: row.email } : { replyTo: row.email };
      await mailer.deliver({
        messageId: row.message_id,
        date: new Date(row.created_at),
        ...recipient,
        subject: row.subject,
        text: row.body,
      });
    } catch (error) {
      stopRenewing();
      if (isPermanentRejection(error)) {
        log(`message ${row.id} refused by the SMTP server; marked failed, not retried: ${errorText(error)}`);
        await db
          .updateTable("messages")
          .set({ status: "failed", last_error: errorText(error), claim_token: null })
          .where("id", "=", row.id)
          .where("status", "=", "pending")
          .where("claim_token", "=", row.claim_token)
          .execute();
        return false;
      }
      const delay = backoffDelay(row.attempts, settings);
      log(`message ${row.id} attempt ${row.attempts} failed; next attempt in ${delay} ms`, errorText(error));
      await db
        .updateTable("messages")
        .set({ next_attempt_at: now() + delay, last_error: errorText(error), claim_token: null })
        .where("id", "=", row.id)
        .where("status", "=", "pending")
        .where("claim_token", "=", row.claim_token)
        .execute();
      return false;
    }
    stopRenewing();
    // Accepted by the server: record it at once (this is the crash window described above).
    await db
      .updateTable("messages")
      .set({ status: "sent", sent_at: new Date(now()).toISOString(), last_error: null, claim_token: null })
      .where("id", "=", row.id)
      .execute();
    return true;
  }

  /** Deletes sent messages delivered more than the retention ago; failed and pending ones stay. */
  async function deleteExpired() {
    const cutoff = new Date(now() - settings.retentionMs).toISOString();
    const deleted = await db
      .deleteFrom("messages")
      .where("status", "=", "sent")
      .where("sent_at", "<", cutoff)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  async function deliverDue(keepGoing: () => boolean = () => true): Promise<number> {
    let sent = 0;
    while (keepGoing()) {
      const row = await claimNext();
      if (!row) break;
      if (await attempt(row)) sent++;
    }
    return sent;
  }

  const loop = createPollingLoop({
    async round(keepGoing) {
      await deliverDue(keepGoing);
      await deleteExpired();
    },
    nextDue: () => nextPendingDue(db, "messages"),
    now,
    pollIntervalMs: settings.pollIntervalMs,
    log,
  });

  return {
    async enqueue(message) {
      const { email, subject, body } = normalizeContact(message);
      const messageId = `<${randomUUID()}@${settings.messageIdDomain}>`;
      const time = now();
      const inserted = await db
        .insertInto("messages")
        .values({
          message_id: messageId,
          email,
          subject,
          body,
          created_at: new Date(time).toISOString(),
          status: "pending",
          next_attempt_at: time,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      loop.nudge();
      return { id: inserted.id, messageId };
    },
    start: loop.start,
    stop: loop.stop,
    nudge: loop.nudge,
    deliverDue: () => deliverDue(),
    deleteExpired,
    get running() {
      return loop.running;
    },
  };
}
