/**
 * Per-key submission limit over a sliding window (RATE_LIMIT: submissions per IP per
 * 10 minutes for each form endpoint).
 * - In memory (one SQLite process): a restart forgets it, which is acceptable for a spam brake.
 *   The number of keys is bounded, the least recently seen key is forgotten first, so a flood of
 *   addresses cannot grow the memory without end.
 * - In the database (instances sharing PostgreSQL): every counted submission is a row of
 *   `rate_limit_hits`, so the limit holds across instances; rows leave after one window.
 */
import { sql } from "kysely";
import { type Db, isPostgres } from "../db/database.ts";

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type RateLimiter = {
  /** Counts one submission for the key if it is allowed; a refused one is not counted. */
  hit(key: string): Promise<RateDecision>;
};

export type MemoryRateLimiter = RateLimiter & {
  /** Keys currently remembered. */
  readonly size: number;
};

export type RateLimiterOptions = {
  /** Submissions allowed per key per window; 0 turns the limit off. */
  limit: number;
  windowMs?: number;
  maxKeys?: number;
  now?: () => number;
};

export const RATE_WINDOW_MS = 10 * 60 * 1000;

function refusal(oldest: number, windowMs: number, time: number): RateDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - time) / 1000)) };
}

export function createRateLimiter(options: RateLimiterOptions): MemoryRateLimiter {
  const { limit, windowMs = RATE_WINDOW_MS, maxKeys = 10_000, now = Date.now } = options;
  /** Each key's submission times, oldest first; the Map's order is least recently seen first. */
  const hits = new Map<string, number[]>();

  return {
    async hit(key) {
      if (limit <= 0) return { allowed: true };
      const time = now();
      const recent = (hits.get(key) ?? []).filter((at) => at > time - windowMs);
      hits.delete(key);
      if (recent.length >= limit) {
        hits.set(key, recent);
        return refusal(recent[0] as number, windowMs, time);
      }
      recent.push(time);
      hits.set(key, recent);
      while (hits.size > maxKeys) {
        const leastRecent = hits.keys().next().value as string;
        hits.delete(leastRecent);
      }
      return { allowed: true };
    },
    get size() {
      return hits.size;
    },
  };
}

/** An advisory-lock class of our own, so the per-key locks never collide with other locks. */
const RATE_LOCK_CLASS = 0x7261;

/**
 * The limit counted in the database. Each hit is one transaction: on PostgreSQL it first takes a
 * lock for the key (pg_advisory_xact_lock), so two instances counting the same address at the same
 * moment see each other's rows; SQLite's single writer gives the same on one machine.
 */
export function createDatabaseRateLimiter(db: Db, options: Omit<RateLimiterOptions, "maxKeys">): RateLimiter {
  const { limit, windowMs = RATE_WINDOW_MS, now = Date.now } = options;
  let lastSweep = Number.NEGATIVE_INFINITY;

  return {
    async hit(key) {
      if (limit <= 0) return { allowed: true };
      const time = now();
      const cutoff = time - windowMs;
      if (time - lastSweep >= windowMs) {
        // Keys that never come back: their rows go once per window, whoever counts next.
        lastSweep = time;
        await db.deleteFrom("rate_limit_hits").where("at", "<=", cutoff).execute();
      }
      return db.transaction().execute(async (trx) => {
        if (isPostgres(trx)) await sql`SELECT pg_advisory_xact_lock(${RATE_LOCK_CLASS}, hashtext(${key}))`.execute(trx);
        await trx.deleteFrom("rate_limit_hits").where("key", "=", key).where("at", "<=", cutoff).execute();
        const recent = await trx
          .selectFrom("rate_limit_hits")
          .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.min("at").as("oldest")])
          .where("key", "=", key)
          .executeTakeFirstOrThrow();
        if (Number(recent.count) >= limit) return refusal(Number(recent.oldest), windowMs, time);
        await trx.insertInto("rate_limit_hits").values({ key, at: time }).execute();
        return { allowed: true } as const;
      });
    },
  };
}
