import { type FormResult, MESSAGES, validateSignup } from "../../rules/forms.ts";
import { type FormDeps, HONEYPOT_FIELD, overLimit, readFields } from "../forms/submission.ts";
import { insertMessage, messageIdDomainOf } from "../mail/outbox.ts";
import { confirmationMail } from "./mail.ts";
import { subscribe } from "./subscriptions.ts";
import { confirmToken } from "./tokens.ts";

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
    // Committed together, so neither the subscriber nor the confirmation exists without the other.
    const result = await deps.database.db.transaction().execute(async (trx) => {
      const now = Date.now();
      const outcome = await subscribe(trx, fields.value.email, { ip, now: new Date(now) });
      if (outcome.outcome === "created" || outcome.outcome === "resend") {
        const mail = confirmationMail(siteUrl, ownerName, confirmToken(secretKey, outcome.subscriber, now));
        await insertMessage(
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
