// In memory a restart forgets the counts, acceptable for a spam brake; instances sharing PostgreSQL count in the database.
import { sql } from "kysely";
import { type Db, isPostgres } from "../db/database.ts";

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A refused submission is not counted. */
export type RateLimiter = { hit(key: string): Promise<RateDecision> };

type RateLimiterOptions = { limit: number; maxKeys?: number; now?: () => number };

export const RATE_WINDOW_MS = 10 * 60 * 1000;

function refusal(oldest: number, time: number): RateDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + RATE_WINDOW_MS - time) / 1000)) };
}

export function createRateLimiter({ limit, maxKeys = 10_000, now = Date.now }: RateLimiterOptions) {
  /** The Map's order is least recently seen first, so a flood of addresses is bounded by `maxKeys`. */
  const hits = new Map<string, number[]>();

  return {
    async hit(key: string): Promise<RateDecision> {
      if (limit <= 0) return { allowed: true };
      const time = now();
      const recent = (hits.get(key) ?? []).filter((at) => at > time - RATE_WINDOW_MS);
      hits.delete(key);
      if (recent.length >= limit) {
        hits.set(key, recent);
        return refusal(recent[0] as number, time);
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

const RATE_LOCK_CLASS = 0x7261;

/** On PostgreSQL a per-key advisory lock lets two instances counting one address see each other's rows. */
export function createDatabaseRateLimiter(db: Db, { limit, now = Date.now }: RateLimiterOptions): RateLimiter {
  let lastSweep = Number.NEGATIVE_INFINITY;

  return {
    async hit(key) {
      if (limit <= 0) return { allowed: true };
      const time = now();
      const cutoff = time - RATE_WINDOW_MS;
      if (time - lastSweep >= RATE_WINDOW_MS) {
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
        if (Number(recent.count) >= limit) return refusal(Number(recent.oldest), time);
        await trx.insertInto("rate_limit_hits").values({ key, at: time }).execute();
        return { allowed: true } as const;
      });
    },
  };
}
