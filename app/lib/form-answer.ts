/**
 * What a form's route action answers, in the browser (`fetcher.data`) and without JavaScript (the
 * page's action data) alike, and the one place an outcome of the form services becomes the words
 * the visitor reads. The words themselves live in rules/forms.ts.
 */
import { type ContactField, type FormResult, MESSAGES } from "../../rules/forms.ts";

export type FormName = "signup" | "contact";

/** The fields sent back to fill the form again (the email only, once a form has succeeded). */
export type FormFields = Partial<Record<ContactField, string>>;

export type FormAnswer =
  | { form: FormName; ok: true; fields: FormFields }
  | { form: FormName; ok: false; error: string; field?: ContactField; fields: FormFields };

/**
 * An outcome as the visitor's form sees it: a result of the services, a failure met on the way
 * (`status` 0: the request never got an answer; a 4xx or 5xx from the HTTP layer, whose `error`
 * may be empty), or a problem the browser found before sending (rules/forms.ts).
 */
export type FormOutcome = FormResult | { ok: false; status: number; error: string; field?: ContactField };

/**
 * A sign-up that failed for any reason but the email says what happened (a network failure, a
 * server error, a post the server could not read); a contact message that could not be taken is
 * 'Sorry, email failed to send.' unless the visitor can fix it (a field) or wait (the rate limit).
 */
function failureMessage(form: FormName, outcome: Extract<FormOutcome, { ok: false }>): string {
  if (form === "contact") {
    const fixable = (outcome.status === 400 && outcome.field) || outcome.status === 429;
    return fixable ? outcome.error : MESSAGES.sendFailed;
  }
  if (outcome.status === 0) return MESSAGES.network;
  if (outcome.status >= 500 || outcome.error === "") return MESSAGES.serverError;
  return outcome.error;
}

export function formAnswer(form: FormName, outcome: FormOutcome, fields: FormFields): FormAnswer {
  if (outcome.ok) return { form, ok: true, fields: { email: fields.email ?? "" } };
  const answer: FormAnswer = { form, ok: false, error: failureMessage(form, outcome), fields };
  if (outcome.field) answer.field = outcome.field;
  return answer;
}

/** The fields of the form that `form` fills, read from a posted form's values. */
export function formFields(form: FormName, values: Record<string, string>): FormFields {
  const names: ContactField[] = form === "signup" ? ["email"] : ["email", "subject", "body"];
  return Object.fromEntries(names.map((name) => [name, values[name] ?? ""]));
}
