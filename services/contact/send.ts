import { type FormResult, MESSAGES, validateContact } from "../../rules/forms.ts";
import { type FormDeps, HONEYPOT_FIELD, overLimit, readFields } from "../forms/submission.ts";

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
    await deps.outbox.enqueue(message);
    return { ok: true, status: 202 };
  } catch (error) {
    deps.log("storing a contact message failed", error);
    return { ok: false, status: 500, error: MESSAGES.sendFailed };
  }
}
