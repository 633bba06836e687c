/**
 * The leased mail queue that contact messages, confirmations (table `messages`) and newsletter
 * deliveries (`newsletter_deliveries`) all go through. Each row is one mail to one recipient; the
 * schedule lives in the database, so it survives restarts and is shared by every process.
 *
 * A round, until nothing is due:
 * 1. Claim: one UPDATE takes up to `batch` due pending rows, counts an attempt, stamps a fresh
 *    claim token and moves `next_attempt_at` one lease ahead. SQLite runs it under its write lock,
 *    so two processes never claim the same row; on PostgreSQL the inner SELECT skips rows another
 *    instance is claiming (FOR UPDATE SKIP LOCKED), so N instances claim N different rows at once.
 * 2. The lease (15 s by default) is renewed every third of it while the worker is alive, so a slow
 *    but alive send is never overtaken, and a worker that dies (SIGKILL, power cut) gives its rows
 *    back within one lease: the next worker sends them again with the same Message-ID.
 * 3. Each row is handed to its kind, which sends it and says what became of it (an `Outcome`);
 *    the queue records that, only while the claim is still ours. Rows claimed but not started (a
 *    stop, an error mid-batch) go back at once.
 *
 * Exactly once, as far as SMTP allows: a row is `sent` right after the server's 250. If the
 * process dies between that 250 and our UPDATE (milliseconds), or a server queued the mail but its
 * 250 never reached us (a connection lost at the end of DATA), the mail is sent again. No sender
 * can close that window without the receiver's help; the stable Message-ID lets mail software
 * recognise the duplicate.
 */
import { randomUUID } from "node:crypto";
import type { Expression, Generated, Kysely, SqlBool } from "kysely";
import { type Db, skipLockedOnPostgres } from "../db/database.ts";
import { createPollingLoop, type PollingLoop } from "./polling-loop.ts";

export type QueueTable = "messages" | "newsletter_deliveries";

/** What the queue reads of a claimed row; the kinds read the rest of their table's columns. */
export type QueueRow = { id: number; attempts: number };

export type QueueTiming = {
  /** First retry delay; each further failure doubles it. */
  baseDelayMs: number;
  /** The longest delay between two attempts. */
  maxDelayMs: number;
  /** How long a claim holds its rows unless renewed: renewed every third of it while sending. */
  leaseMs: number;
  /** How often an idle worker looks for due rows (also picks up rows of other processes). */
  pollIntervalMs: number;
  now: () => number;
  log: (message: string, error?: unknown) => void;
};

export const DEFAULT_QUEUE_TIMING: Omit<QueueTiming, "log"> = {
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60 * 1000,
  leaseMs: 15_000,
  pollIntervalMs: 5000,
  now: Date.now,
};

/** What became of one claimed row. */
export type Outcome =
  /** The SMTP server accepted the mail. */
  | { sent: true }
  /** Done for good with this status (failed, bounced, skipped); `alongside` runs in the same transaction. */
  | { final: string; error?: unknown; alongside?: (trx: Db) => Promise<void> }
  /** Try again after the back-off; `quiet`: the kind has said why already. */
  | { retry: unknown; quiet?: boolean }
  /** Leave the row pending and untouched (its send is paused): it waits for the owner. */
  | { hold: unknown };

export type QueueKind<Row extends QueueRow> = {
  table: QueueTable;
  /** How the log names a row: "message 12", "delivery 40". */
  noun: string;
  /** Rows claimed at once. */
  batch: number;
  /** Besides being due, what a row must satisfy to be claimed (e.g. its send is not paused). */
  claimable?: Expression<SqlBool>;
  /** When each of `count` claimed rows may start (a pace shared by processes); default: now. */
  pace?(count: number): Promise<number[]>;
  /** Sends one claimed row and says what became of it; throws only for the unexpected. */
  deliver(row: Row): Promise<Outcome>;
  /** More work for each round once nothing is due (e.g. deleting old rows). */
  afterRound?(): Promise<unknown>;
};

export type MailQueue = PollingLoop & {
  /** Delivers every due row now, batch by batch; resolves with how many were sent. For tests and scripts. */
  deliverDue(): Promise<number>;
};

/** The delay before attempt n + 1 after n failed attempts (n ≥ 1). */
export function backoffDelay(failedAttempts: number, timing: Pick<QueueTiming, "baseDelayMs" | "maxDelayMs">) {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 40);
  return Math.min(timing.maxDelayMs, timing.baseDelayMs * 2 ** exponent);
}

/** An error as one line of at most 1,000 characters, for `last_error` and the log. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 1000);
}

/**
 * Whom a failed SMTP attempt is about:
 * - `recipient`: this address is refused (a 5xx to RCPT TO, a 5.1.x or 5.2.x mailbox status);
 * - `message`: this mail is refused for good (another 5xx to DATA);
 * - `sender`: we are refused, whatever the mail or recipient (MAIL FROM, authentication, a 5.7.x
 *   policy, a TLS failure): the fault is in our settings, never held against a recipient;
 * - undefined: a transient failure (a 4xx, a dropped connection, a timeout), retried with back-off.
 * `command`, `code`, `response` and `responseCode` are what nodemailer puts on its errors.
 */
export function refusalOf(error: unknown): "recipient" | "message" | "sender" | undefined {
  const { command, code, originalCode, response, responseCode } = (error ?? {}) as Record<string, unknown>;
  if (typeof responseCode === "number" && responseCode < 500) return undefined;
  if (code === "EAUTH" || code === "ETLS" || /CERT|TLS|SSL/.test(String(originalCode ?? ""))) return "sender";
  if (typeof responseCode !== "number" || responseCode >= 600) return undefined;
  if (command === "MAIL FROM" || String(command).startsWith("AUTH")) return "sender";
  const status = /\b5\.(\d{1,3})\.\d{1,3}\b/.exec(String(response ?? ""))?.[1];
  if (status === "7") return "sender";
  if (status === "1" || status === "2") return "recipient";
  return command === "RCPT TO" ? "recipient" : "message";
}

/** Waits until `time`, looking every quarter second whether the worker is being stopped. */
async function waitUntil(time: number, now: () => number, keepGoing: () => boolean) {
  for (let left = time - now(); left > 0 && keepGoing(); left = time - now()) {
    await new Promise((done) => setTimeout(done, Math.min(left, 250)));
  }
}

/** The columns every queue table has. */
type QueueColumns = {
  id: Generated<number>;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  claim_token: string | null;
  last_error: string | null;
  sent_at: string | null;
};

export function createMailQueue<Row extends QueueRow>(db: Db, kind: QueueKind<Row>, timing: QueueTiming): MailQueue {
  const { now, log } = timing;
  // Both tables hold the queue's columns; the queue reads and writes no other.
  const queue = db as unknown as Kysely<{ [table in QueueTable]: QueueColumns }>;
  /** The pending rows due at `time` that the kind lets us claim. */
  function due(time: number) {
    const query = queue.selectFrom(kind.table).where("status", "=", "pending").where("next_attempt_at", "<=", time);
    return kind.claimable ? query.where(kind.claimable) : query;
  }

  async function claim(token: string): Promise<Row[]> {
    const time = now();
    const rows = await queue
      .updateTable(kind.table)
      .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: time + timing.leaseMs, claim_token: token }))
      .where("id", "in", () =>
        due(time)
          .select("id")
          .orderBy("next_attempt_at")
          .orderBy("id")
          .limit(kind.batch)
          .$call(skipLockedOnPostgres(db)),
      )
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", time)
      .returningAll()
      .execute();
    return (rows as unknown as Row[]).sort((a, b) => a.id - b.id);
  }

  /** Pushes the lease ahead while this worker is alive (a dead worker stops renewing). */
  function renewWhileWorking(token: string) {
    const renewal = setInterval(() => {
      void queue
        .updateTable(kind.table)
        .set({ next_attempt_at: now() + timing.leaseMs })
        .where("claim_token", "=", token)
        .where("status", "=", "pending")
        .execute()
        .catch((error: unknown) => log("lease renewal failed", error));
    }, timing.leaseMs / 3);
    renewal.unref();
    return () => clearInterval(renewal);
  }

  /** Records what became of a row we still hold; a row another worker took over is left alone. */
  const finish = (
    on: Db,
    row: Row,
    token: string,
    values: { status?: string; next_attempt_at?: number; last_error?: string },
  ) =>
    (on as unknown as typeof queue)
      .updateTable(kind.table)
      .set({ ...values, claim_token: null })
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .where("claim_token", "=", token)
      .executeTakeFirst();

  async function record(row: Row, token: string, outcome: Outcome) {
    if ("sent" in outcome) {
      // Accepted by the server: recorded at once (the window described at the top).
      await queue
        .updateTable(kind.table)
        .set({ status: "sent", sent_at: new Date(now()).toISOString(), last_error: null, claim_token: null })
        .where("id", "=", row.id)
        .execute();
    } else if ("final" in outcome) {
      const { final, error, alongside } = outcome;
      await db.transaction().execute(async (trx) => {
        const values = { status: final, ...(error === undefined ? {} : { last_error: errorText(error) }) };
        const updated = await finish(trx, row, token, values);
        if (updated.numUpdatedRows === 1n) await alongside?.(trx);
      });
    } else if ("retry" in outcome) {
      const delay = backoffDelay(row.attempts, timing);
      if (!outcome.quiet) {
        log(
          `${kind.noun} ${row.id} attempt ${row.attempts} failed; next attempt in ${delay} ms`,
          errorText(outcome.retry),
        );
      }
      await finish(db, row, token, { next_attempt_at: now() + delay, last_error: errorText(outcome.retry) });
    } else {
      await finish(db, row, token, { next_attempt_at: now(), last_error: errorText(outcome.hold) });
    }
  }

  async function deliverDue(keepGoing: () => boolean = () => true): Promise<number> {
    let sent = 0;
    while (keepGoing()) {
      const token = randomUUID();
      const rows = await claim(token);
      if (rows.length === 0) break;
      const stopRenewing = renewWhileWorking(token);
      try {
        const slots = kind.pace ? await kind.pace(rows.length) : [];
        for (const [index, row] of rows.entries()) {
          if (!keepGoing()) break;
          await waitUntil(slots[index] ?? 0, now, keepGoing);
          if (!keepGoing()) break;
          const outcome = await kind.deliver(row);
          await record(row, token, outcome);
          if ("sent" in outcome) sent++;
        }
      } finally {
        stopRenewing();
        // Rows we claimed but did not start go back at once.
        await queue
          .updateTable(kind.table)
          .set({ claim_token: null, next_attempt_at: now() })
          .where("claim_token", "=", token)
          .where("status", "=", "pending")
          .execute();
      }
    }
    return sent;
  }

  /** When the earliest claimable row is due (epoch milliseconds), or null when none is. */
  async function nextDue(): Promise<number | null> {
    const next = await due(Number.MAX_SAFE_INTEGER)
      .select((eb) => eb.fn.min("next_attempt_at").as("due"))
      .executeTakeFirst();
    return next?.due == null ? null : Number(next.due);
  }

  const loop = createPollingLoop({
    async round(keepGoing) {
      await deliverDue(keepGoing);
      await kind.afterRound?.();
    },
    nextDue,
    now,
    pollIntervalMs: timing.pollIntervalMs,
    log,
  });

  return Object.assign(loop, { deliverDue: () => deliverDue() });
}
