// A webmention is only checked for its form here; whether the source really links is the worker's
// question, asked later, so that a sender waits for no fetch and a flood costs no request out.

import { REPLY_LIMITS } from "../../rules/forms.ts";
import type { Db } from "../db/database.ts";
import type { RateLimiter } from "../forms/rate-limit.ts";
import { isReplyTarget } from "../replies/store.ts";

export type WebmentionInput = { source: string; target: string };

export type Received =
  | { ok: true; status: 202; id: number }
  | { ok: false; status: 400 | 429 | 503; error: string; retryAfter?: number };

/** Checks waiting at once, across every sender: past it a new webmention is asked to come back later. */
export const QUEUED_LIMIT = 10_000;

const refused = (error: string) => ({ ok: false, status: 400, error }) as const;

function webUrl(field: string, value: string): URL | string {
  if (!value) return `The ${field} is missing: send source and target, form-encoded.`;
  if (value.length > REPLY_LIMITS.urlMaxLength) {
    return `The ${field} is longer than ${REPLY_LIMITS.urlMaxLength} characters.`;
  }
  const url = URL.parse(value);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return `The ${field} must be an http or https address.`;
  }
  return url;
}

/** The two addresses as the queue keeps them, or the 400's text. */
export function checkWebmention(
  input: WebmentionInput,
  siteUrl: string,
): { ok: true; source: string; target: string } | { ok: false; error: string } {
  const source = webUrl("source", input.source);
  if (typeof source === "string") return { ok: false, error: source };
  const target = webUrl("target", input.target);
  if (typeof target === "string") return { ok: false, error: target };
  if (target.origin !== new URL(siteUrl).origin) return { ok: false, error: "The target is not a page of this site." };
  if (!isReplyTarget(target.pathname)) {
    return { ok: false, error: "The target is not an essay or a book note of this site." };
  }
  source.hash = "";
  target.hash = "";
  if (source.href === target.href) return { ok: false, error: "The source and the target must be different pages." };
  return { ok: true, source: source.href, target: target.href };
}

export type ReceiveDeps = { db: Db; siteUrl: string; rateLimiter: RateLimiter };

/**
 * Stored before it is answered. A webmention already known is queued again, as a changed source is
 * announced; its earlier reply stays until the new check decides.
 */
export async function receiveWebmention(deps: ReceiveDeps, input: WebmentionInput): Promise<Received> {
  const checked = checkWebmention(input, deps.siteUrl);
  if (!checked.ok) return refused(checked.error);
  const decision = await deps.rateLimiter.hit(`webmention ${new URL(checked.source).hostname}`);
  if (!decision.allowed) {
    return {
      ok: false,
      status: 429,
      error: "Too many webmentions from this site: try again later.",
      retryAfter: decision.retryAfterSeconds,
    };
  }
  const queued = await deps.db
    .selectFrom("webmentions")
    .select((count) => count.fn.countAll<number>().as("waiting"))
    .where("status", "=", "queued")
    .executeTakeFirstOrThrow();
  if (Number(queued.waiting) >= QUEUED_LIMIT) {
    return {
      ok: false,
      status: 503,
      error: "Too many webmentions are waiting to be checked: try again later.",
      retryAfter: 600,
    };
  }
  const at = new Date().toISOString();
  const again = {
    status: "queued",
    attempts: 0,
    next_attempt_at: Date.now(),
    claimed_until: null,
    claim_token: null,
    reason: null,
    updated_at: at,
  } as const;
  const row = await deps.db
    .insertInto("webmentions")
    .values({ source: checked.source, target: checked.target, received_at: at, ...again })
    .onConflict((conflict) => conflict.columns(["source", "target"]).doUpdateSet(again))
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ok: true, status: 202, id: row.id };
}

/** Refused webmentions are kept this long, for the owner to see why; then they go, so a flood leaves nothing behind. */
export const REFUSED_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

export async function forgetRefused(db: Db, now = Date.now()): Promise<number> {
  const deleted = await db
    .deleteFrom("webmentions")
    .where("status", "=", "refused")
    .where("updated_at", "<", new Date(now - REFUSED_KEPT_MS).toISOString())
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
