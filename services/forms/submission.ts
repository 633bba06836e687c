// Only well-formed submissions count toward the rate limit, so a typo in a form without JavaScript costs nothing.
import { type FormFailure, type FormField, MESSAGES } from "../../rules/forms.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/database.ts";
import type { Outbox } from "../mail/outbox.ts";
import type { RateDecision, RateLimiter } from "./rate-limit.ts";

export const HONEYPOT_FIELD = "website";

export type FormDeps = {
  database: { db: Db };
  outbox: Pick<Outbox, "enqueue" | "nudge">;
  config: Pick<Config, "siteUrl" | "secretKey" | "mailFrom" | "ownerName">;
  rateLimiter: RateLimiter;
  log: (message: string, error?: unknown) => void;
};

const NOT_AN_OBJECT = "The request body must be a JSON object.";

type Fields<K extends string> = Record<K, string>;

const LONE_SURROGATE = /\p{Cs}/u;

const fieldFailure = (name: string, error: string): FormFailure =>
  name === HONEYPOT_FIELD
    ? { ok: false, status: 400, error }
    : { ok: false, status: 400, error, field: name as FormField };

export function readFields<K extends string>(
  input: unknown,
  names: readonly K[],
): { ok: true; value: Fields<K> } | { ok: false; failure: FormFailure } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, failure: { ok: false, status: 400, error: NOT_AN_OBJECT } };
  }
  const value = {} as Fields<K>;
  for (const name of names) {
    // Own properties only: `{"__proto__": {...}}` never counts as a field.
    const raw: unknown = Object.hasOwn(input, name) ? (input as Record<string, unknown>)[name] : undefined;
    if (raw !== undefined && typeof raw !== "string") {
      return { ok: false, failure: fieldFailure(name, `The field "${name}" must be a string.`) };
    }
    // JSON can carry "\ud800", which no form can produce and no mail can encode.
    if (raw && LONE_SURROGATE.test(raw)) {
      return { ok: false, failure: fieldFailure(name, `The field "${name}" must be valid Unicode text.`) };
    }
    value[name] = raw ?? "";
  }
  return { ok: true, value };
}

export async function overLimit(deps: FormDeps, form: string, ip: string | undefined, failed: string) {
  let decision: RateDecision;
  try {
    decision = await deps.rateLimiter.hit(`${form} ${ip ?? "unknown"}`);
  } catch (error) {
    deps.log("the rate limit could not be checked", error);
    return { ok: false, status: 500, error: failed } satisfies FormFailure;
  }
  if (decision.allowed) return null;
  return {
    ok: false,
    status: 429,
    error: MESSAGES.rateLimited,
    retryAfter: decision.retryAfterSeconds,
  } satisfies FormFailure;
}
