// The leased mail queue behind messages and newsletter deliveries. A mail is marked sent right after the
// server's 250; a crash between the two re-sends it with the same Message-ID, which no sender can avoid.
import { randomUUID } from "node:crypto";
import type { Expression, Kysely, SqlBool } from "kysely";
import { type Db, isPostgres, type QueueColumns } from "../db/database.ts";

export const DEFAULT_QUEUE_TIMING = {
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60 * 1000,
  leaseMs: 15_000,
  pollIntervalMs: 5000,
  now: Date.now,
};

export type QueueTiming = typeof DEFAULT_QUEUE_TIMING & { log: (message: string, error?: unknown) => void };

type Outcome =
  | { sent: true; afterward?: () => Promise<unknown> }
  /** `alongside` runs in the same transaction. */
  | { final: string; error?: unknown; alongside?: (trx: Db) => Promise<void> }
  | { retry: unknown; quiet?: boolean }
  | { hold: unknown };

type QueueKind<Row> = {
  table: "messages" | "newsletter_deliveries";
  noun: string;
  batch: number;
  claimable?: Expression<SqlBool>;
  pace?(count: number): Promise<number[]>;
  deliver(row: Row): Promise<Outcome>;
  afterRound?(): Promise<unknown>;
};

export type MailQueue = ReturnType<typeof createMailQueue>;

export function backoffDelay(failedAttempts: number, timing: Pick<QueueTiming, "baseDelayMs" | "maxDelayMs">) {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 40);
  return Math.min(timing.maxDelayMs, timing.baseDelayMs * 2 ** exponent);
}

export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 1000);
}

/** `sender`: the fault is in our settings, so it is never held against a recipient; undefined: transient. */
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

async function waitUntil(time: number, now: () => number, keepGoing: () => boolean) {
  for (let left = time - now(); left > 0 && keepGoing(); left = time - now()) {
    await new Promise((done) => setTimeout(done, Math.min(left, 250)));
  }
}

type QueueRow = { id: number; attempts: number };

export function createMailQueue<Row extends QueueRow>(db: Db, kind: QueueKind<Row>, timing: QueueTiming) {
  const { now, log, pollIntervalMs } = timing;
  const queue = db as unknown as Kysely<{ [table in QueueKind<Row>["table"]]: QueueColumns<string> }>;
  function due(time: number) {
    const query = queue.selectFrom(kind.table).where("status", "=", "pending").where("next_attempt_at", "<=", time);
    return kind.claimable ? query.where(kind.claimable) : query;
  }

  async function claim(token: string): Promise<Row[]> {
    const time = now();
    const rows = await queue
      .updateTable(kind.table)
      .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: time + timing.leaseMs, claim_token: token }))
      // One row: `=`, a subquery PostgreSQL runs once; a batch: `in`.
      .where("id", kind.batch === 1 ? "=" : "in", () =>
        due(time)
          .select("id")
          .orderBy("next_attempt_at")
          .orderBy("id")
          .limit(kind.batch)
          // SQLite runs every write under one lock, so only PostgreSQL needs SKIP LOCKED for N instances to claim different rows.
          .$call((query) => (isPostgres(db) ? query.forUpdate().skipLocked() : query)),
      )
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", time)
      .returningAll()
      .execute();
    return (rows as unknown as Row[]).sort((a, b) => a.id - b.id);
  }

  /** A dead worker stops renewing, so its rows come back within one lease. */
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

  /** A row another worker took over is left alone. */
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
      await queue
        .updateTable(kind.table)
        .set({ status: "sent", sent_at: new Date(now()).toISOString(), last_error: null, claim_token: null })
        .where("id", "=", row.id)
        .execute();
      await outcome.afterward?.();
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
        // Rows claimed but not started go back at once.
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

  async function idleDelay(): Promise<number> {
    const next = await due(Number.MAX_SAFE_INTEGER)
      .select((eb) => eb.fn.min("next_attempt_at").as("due"))
      .executeTakeFirst();
    if (next?.due == null) return pollIntervalMs;
    return Math.min(Math.max(Number(next.due) - now(), 0), pollIntervalMs);
  }

  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<void> | undefined;
  let nudged = false;

  function schedule(delayMs: number) {
    if (!started || draining) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
    timer.unref();
  }

  /** A round runs when nudged, when the next row is due, or every `pollIntervalMs` at the latest. */
  function run() {
    if (!started || draining) return;
    nudged = false;
    draining = (async () => {
      try {
        await deliverDue(() => started);
        await kind.afterRound?.();
        return started && !nudged ? await idleDelay() : 0;
      } catch (error) {
        log("delivery round failed; retrying later", error);
        return pollIntervalMs;
      }
    })().then((delay) => {
      draining = undefined;
      schedule(nudged ? 0 : delay);
    });
  }

  return {
    deliverDue: () => deliverDue(),
    start() {
      if (started) return;
      started = true;
      schedule(0);
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      await draining;
    },
    nudge() {
      if (!started) return;
      if (draining) nudged = true;
      else schedule(0);
    },
    get running() {
      return started;
    },
  };
}
