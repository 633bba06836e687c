/**
 * What the two forms do, free of any HTTP framework: the route actions of the sign-up and contact
 * pages (app/routes/) and the JSON API (server/http/api.ts) both call `signUp` and `sendMessage`
 * and only translate the result. Input is whatever arrived (parsed JSON, or the fields of a form
 * post); the result says which HTTP status and which visitor-facing message fit.
 *
 * Order of checks, for both: the shape of the input (an object of strings) → the honeypot (a
 * filled `website` field gets the success answer and nothing is stored or sent) → the form rules
 * (rules/forms.ts) → the rate limit (only well-formed submissions count, so a typo on a
 * form without JavaScript costs nothing) → storage.
 */
import {
  type ContactField,
  type FormFailure,
  type FormResult,
  MESSAGES,
  normalizeContact,
  validateContact,
  validateSignup,
} from "../../rules/forms.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/database.ts";
import { insertConfirmation, messageIdDomainOf, type Outbox } from "../mail/outbox.ts";
import { confirmationMail } from "../newsletter/mail.ts";
import { subscribe } from "../newsletter/subscriptions.ts";
import { confirmToken } from "../newsletter/tokens.ts";
import type { RateDecision, RateLimiter } from "./rate-limit.ts";

/** The honeypot: a field people never see or fill, that naive bots do. */
export const HONEYPOT_FIELD = "website";

/** What a submission needs of a backend (server/backend.ts): any started instance will do. */
export type FormDeps = {
  database: { db: Db };
  outbox: Pick<Outbox, "enqueue" | "nudge">;
  /** The confirmation link: SITE_URL and the secret that signs it; MAIL_FROM names the Message-ID host. */
  config: Pick<Config, "siteUrl" | "secretKey" | "mailFrom" | "ownerName">;
  /** One limiter for both forms (keys are per form and per address). */
  rateLimiter: RateLimiter;
  log: (message: string, error?: unknown) => void;
};

export const NOT_AN_OBJECT = "The request body must be a JSON object.";

type Fields<K extends string> = Record<K, string>;

const LONE_SURROGATE = /\p{Cs}/u;

function fieldFailure(name: string, error: string): FormFailure {
  const failure: FormFailure = { ok: false, status: 400, error };
  if (name === "email" || name === "subject" || name === "body") failure.field = name as ContactField;
  return failure;
}

/** Reads string fields of an untrusted object: absent means empty, anything but a string is refused. */
function readFields<K extends string>(
  input: unknown,
  names: readonly K[],
): { ok: true; value: Fields<K> } | { ok: false; failure: FormFailure } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, failure: { ok: false, status: 400, error: NOT_AN_OBJECT } };
  }
  const value = {} as Fields<K>;
  for (const name of names) {
    // Own properties only: `{"__proto__": {...}}` or inherited names never count as fields.
    const raw: unknown = Object.hasOwn(input, name) ? (input as Record<string, unknown>)[name] : undefined;
    if (raw === undefined) {
      value[name] = "";
    } else if (typeof raw === "string" && !LONE_SURROGATE.test(raw)) {
      value[name] = raw;
    } else if (typeof raw === "string") {
      // JSON can carry "\ud800", which no form can produce and no mail can encode.
      return { ok: false, failure: fieldFailure(name, `The field "${name}" must be valid Unicode text.`) };
    } else {
      return { ok: false, failure: fieldFailure(name, `The field "${name}" must be a string.`) };
    }
  }
  return { ok: true, value };
}

/** `failed`: the answer when the count cannot be read (a database limit whose database is down). */
async function overLimit(deps: FormDeps, form: string, ip: string | undefined, failed: string) {
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

/** A newsletter sign-up: `{ email, website? }` → 201 created, 409 already used, 400, 429 or 500. */
export async function signUp(deps: FormDeps, input: unknown, ip: string | undefined): Promise<FormResult> {
  const fields = readFields(input, ["email", HONEYPOT_FIELD]);
  if (!fields.ok) return fields.failure;
  if (fields.value[HONEYPOT_FIELD] !== "") return { ok: true, status: 201 };
  const problem = validateSignup(fields.value.email);
  if (problem) return { ok: false, status: 400, error: problem.error, field: problem.field };
  const limited = await overLimit(deps, "user", ip, MESSAGES.serverError);
  if (limited) return limited;
  try {
    const { siteUrl, secretKey, mailFrom, ownerName } = deps.config;
    // The subscriber and their confirmation mail are committed together, so neither exists without the other.
    const result = await deps.database.db.transaction().execute(async (trx) => {
      const now = Date.now();
      const outcome = await subscribe(trx, fields.value.email, { ip, now: new Date(now) });
      if (outcome.outcome === "created" || outcome.outcome === "resend") {
        const mail = confirmationMail(siteUrl, ownerName, confirmToken(secretKey, outcome.subscriber, now));
        await insertConfirmation(
          trx,
          { kind: "confirmation", email: outcome.subscriber.email, ...mail },
          { messageIdDomain: messageIdDomainOf(mailFrom), now },
        );
      }
      return outcome.outcome;
    });
    if (result === "exists") return { ok: false, status: 409, error: MESSAGES.emailUsed };
    if (result !== "pending") deps.outbox.nudge();
    return { ok: true, status: 201 };
  } catch (error) {
    deps.log("subscribe failed", error);
    return { ok: false, status: 500, error: MESSAGES.serverError };
  }
}

/** A contact message: `{ email, subject, body, website? }` → 202 stored for delivery, 400, 429 or 500. */
export async function sendMessage(deps: FormDeps, input: unknown, ip: string | undefined): Promise<FormResult> {
  const fields = readFields(input, ["email", "subject", "body", HONEYPOT_FIELD]);
  if (!fields.ok) return fields.failure;
  if (fields.value[HONEYPOT_FIELD] !== "") return { ok: true, status: 202 };
  const message = { email: fields.value.email, subject: fields.value.subject, body: fields.value.body };
  const problem = validateContact(message);
  if (problem) return { ok: false, status: 400, error: problem.error, field: problem.field };
  const limited = await overLimit(deps, "email", ip, MESSAGES.sendFailed);
  if (limited) return limited;
  try {
    await deps.outbox.enqueue(normalizeContact(message));
    return { ok: true, status: 202 };
  } catch (error) {
    deps.log("storing a contact message failed", error);
    // The message could not be kept, so it will not be sent: the visitor is told so.
    return { ok: false, status: 500, error: MESSAGES.sendFailed };
  }
}
