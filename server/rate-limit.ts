/**
 * Per-key submission limit over a sliding window (DESIGN §5 RATE_LIMIT: submissions per IP per
 * 10 minutes for each form endpoint). In memory: a restart forgets it, which is acceptable for a
 * spam brake. The number of keys is bounded, the least recently seen key is forgotten first, so a
 * flood of addresses cannot grow the memory without end.
 */

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type RateLimiter = {
  /** Counts one submission for the key if it is allowed; a refused one is not counted. */
  hit(key: string): RateDecision;
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

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { limit, windowMs = RATE_WINDOW_MS, maxKeys = 10_000, now = Date.now } = options;
  /** Each key's submission times, oldest first; the Map's order is least recently seen first. */
  const hits = new Map<string, number[]>();

  return {
    hit(key) {
      if (limit <= 0) return { allowed: true };
      const time = now();
      const recent = (hits.get(key) ?? []).filter((at) => at > time - windowMs);
      hits.delete(key);
      if (recent.length >= limit) {
        hits.set(key, recent);
        const oldest = recent[0] as number;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - time) / 1000)) };
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
