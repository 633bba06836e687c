// The two webmention queues (checks of received ones, sends of ours) live in the database: a row
// survives a restart, and of several instances sharing PostgreSQL one takes it, for a lease.
import { randomUUID } from "node:crypto";
import { type Selectable, sql } from "kysely";
import { type Db, isPostgres, type Tables } from "../db/database.ts";

export type LeasedTable = "webmentions" | "webmention_sends";

export type LoopOptions = {
  pollMs: number;
  /** A claim older than this is taken again: its instance died mid-request. */
  leaseMs: number;
  /** Rows handled at once: a slow site holds one worker, not the queue. */
  workers: number;
  /** Retries after a transient failure, doubling from this delay. */
  baseDelayMs: number;
  maxAttempts: number;
  now: () => number;
};

export const DEFAULT_LOOP: LoopOptions = {
  pollMs: 1000,
  leaseMs: 5 * 60_000,
  workers: 2,
  baseDelayMs: 60_000,
  maxAttempts: 8,
  now: Date.now,
};

/** What a row becomes once its tries are used up. */
const GIVEN_UP = { webmentions: "refused", webmention_sends: "failed" } as const;

export type Claimed<T extends LeasedTable> = Selectable<Tables[T]> & {
  id: number;
  attempts: number;
  claim_token: string;
};

/** The oldest queued row that is due and not leased, leased to the caller. */
export async function claimDue<T extends LeasedTable>(
  db: Db,
  table: T,
  { leaseMs, now }: Pick<LoopOptions, "leaseMs" | "now">,
): Promise<Claimed<T> | undefined> {
  const at = now();
  const token = randomUUID();
  // SQLite runs one write at a time, so the UPDATE's subquery needs no row lock there.
  const skipLocked = isPostgres(db) ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const { rows } = await sql<Claimed<T>>`
    UPDATE ${sql.table(table)} SET claimed_until = ${at + leaseMs}, claim_token = ${token}
    WHERE id = (
      SELECT id FROM ${sql.table(table)}
      WHERE status = 'queued' AND next_attempt_at <= ${at} AND (claimed_until IS NULL OR claimed_until < ${at})
      ORDER BY next_attempt_at, id LIMIT 1 ${skipLocked})
    RETURNING *`.execute(db);
  return rows[0];
}

/** Workers that claim and handle rows until stopped. */
export function runLoop<T extends LeasedTable>(
  db: Db,
  table: T,
  options: LoopOptions,
  handle: (row: Claimed<T>) => Promise<void>,
  log: (message: string, error?: unknown) => void,
  /** Run when a worker finds nothing due, before it pauses. */
  idle: () => Promise<unknown> = async () => {},
) {
  const stopping = new AbortController();
  const pause = () =>
    new Promise<void>((done) => {
      const timer = setTimeout(done, options.pollMs);
      stopping.signal.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          done();
        },
        { once: true },
      );
    });
  // A row whose handling throws is tried again like a transient failure, and given up at the same bound.
  const failed = async (row: Claimed<T>, error: unknown) => {
    const attempts = row.attempts + 1;
    const next = retryAt(attempts, options);
    const reason = `could not be handled: ${error instanceof Error ? error.message : String(error)}`;
    await sql`
      UPDATE ${sql.table(table)} SET attempts = ${attempts}, reason = ${reason}, claimed_until = NULL, claim_token = NULL,
        next_attempt_at = ${next ?? options.now()}, status = ${next === undefined ? GIVEN_UP[table] : "queued"}
      WHERE id = ${row.id} AND claim_token = ${row.claim_token}`.execute(db);
  };
  const worker = async () => {
    while (!stopping.signal.aborted) {
      let row: Claimed<T> | undefined;
      try {
        row = await claimDue(db, table, options);
        if (row) await handle(row);
        else {
          await idle();
          await pause();
        }
      } catch (error) {
        log(`could not work on ${table}`, error);
        if (row)
          await failed(row, error).catch((failure: unknown) => log(`could not give a ${table} row back`, failure));
        await pause();
      }
    }
  };
  const running = Promise.all(Array.from({ length: options.workers }, worker));
  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}

/** The next try after a transient failure, or none once the tries are used up. */
export function retryAt(attempts: number, { baseDelayMs, maxAttempts, now }: LoopOptions): number | undefined {
  return attempts >= maxAttempts ? undefined : now() + baseDelayMs * 2 ** (attempts - 1);
}
