/**
 * What the two forms do, free of any HTTP framework: the JSON API (server/api.ts) and
 * the React Router form actions (posts without JavaScript) both call these and only translate the
 * result. Input is whatever arrived (parsed JSON, or the fields of a form post); the result says
 * which HTTP status and which visitor-facing message fit.
 *
 * Order of checks, for both: the shape of the input (an object of strings) → the honeypot (a
 * filled `website` field gets the success answer and nothing is stored or sent) → the form rules
 * (rules/forms.ts) → the rate limit (only well-formed submissions count, so a typo on a
 * form without JavaScript costs nothing) → storage.
 */

import type { FormFailure, FormServices } from "../rules/form-services.ts";
import { type ContactField, MESSAGES, normalizeContact, validateContact, validateSignup } from "../rules/forms.ts";
import type { Config } from "./config.ts";
import type { Db } from "./db.ts";
import { confirmationMail } from "./newsletter-mail.ts";
import { insertConfirmation, messageIdDomainOf, type Outbox } from "./outbox.ts";
import { createRateLimiter, type RateDecision, type RateLimiter } from "./rate-limit.ts";
import { subscribe } from "./subscriptions.ts";
import { confirmToken } from "./tokens.ts";

/** The honeypot: a field people never see or fill, that naive bots do. */
export const HONEYPOT_FIELD = "website";

export type ServicesDeps = {
  db: Db;
  outbox: Pick<Outbox, "enqueue" | "nudge">;
  /** The confirmation link: SITE_URL and the secret that signs it; MAIL_FROM names the Message-ID host. */
  config: Pick<Config, "rateLimit" | "siteUrl" | "secretKey" | "mailFrom" | "ownerName">;
  /** One limiter for both endpoints (keys are per endpoint); made from config.rateLimit if absent. */
  rateLimiter?: RateLimiter;
  log?: (message: string, error?: unknown) => void;
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

export function createServices(deps: ServicesDeps): FormServices {
  const { db, outbox } = deps;
  const limiter = deps.rateLimiter ?? createRateLimiter({ limit: deps.config.rateLimit });
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));

  /** `failed`: the answer when the count cannot be read (a database limit whose database is down). */
  async function overLimit(endpoint: string, ip: string | undefined, failed: string): Promise<FormFailure | null> {
    let decision: RateDecision;
    try {
      decision = await limiter.hit(`${endpoint} ${ip ?? "unknown"}`);
    } catch (error) {
      log("the rate limit could not be checked", error);
      return { ok: false, status: 500, error: failed };
    }
    if (decision.allowed) return null;
    return { ok: false, status: 429, error: MESSAGES.rateLimited, retryAfter: decision.retryAfterSeconds };
  }

  return {
    async subscribe(input, ip) {
      const fields = readFields(input, ["email", HONEYPOT_FIELD]);
      if (!fields.ok) return fields.failure;
      if (fields.value[HONEYPOT_FIELD] !== "") return { ok: true, status: 201 };
      const problem = validateSignup(fields.value.email);
      if (problem) return { ok: false, status: 400, error: problem.error, field: problem.field };
      const limited = await overLimit("user", ip, MESSAGES.serverError);
      if (limited) return limited;
      try {
        const { siteUrl, secretKey, mailFrom, ownerName } = deps.config;
        // The subscriber and their confirmation mail are committed together (the outbox design).
        const result = await db.transaction().execute(async (trx) => {
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
        if (result !== "pending") outbox.nudge();
        return { ok: true, status: 201 };
      } catch (error) {
        log("subscribe failed", error);
        return { ok: false, status: 500, error: MESSAGES.serverError };
      }
    },

    async sendMessage(input, ip) {
      const fields = readFields(input, ["email", "subject", "body", HONEYPOT_FIELD]);
      if (!fields.ok) return fields.failure;
      if (fields.value[HONEYPOT_FIELD] !== "") return { ok: true, status: 202 };
      const message = { email: fields.value.email, subject: fields.value.subject, body: fields.value.body };
      const problem = validateContact(message);
      if (problem) return { ok: false, status: 400, error: problem.error, field: problem.field };
      const limited = await overLimit("email", ip, MESSAGES.sendFailed);
      if (limited) return limited;
      try {
        await outbox.enqueue(normalizeContact(message));
        return { ok: true, status: 202 };
      } catch (error) {
        log("storing a contact message failed", error);
        // The message could not be kept, so it will not be sent.
        return { ok: false, status: 500, error: MESSAGES.sendFailed };
      }
    },
  };
}
