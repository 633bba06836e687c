import { type FormField, type FormResult, MESSAGES } from "../../rules/forms.ts";

export type FormName = "signup" | "contact" | "reply";

export type FormFields = Partial<Record<FormField, string>>;

export type FormAnswer =
  | { form: FormName; ok: true; fields: FormFields }
  | { form: FormName; ok: false; error: string; field?: FormField; fields: FormFields };

// `status` 0: the request never got an answer; the HTTP layer's 4xx or 5xx may have an empty `error`.
export type FormOutcome = FormResult | { ok: false; status: number; error: string; field?: FormField };

// A contact message says only that sending failed, unless the visitor can fix a field or wait.
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
  const error = failureMessage(form, outcome);
  return { form, ok: false, error, fields, ...(outcome.field && { field: outcome.field }) };
}

export const formValues = (form: FormData): Record<string, string> =>
  Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"));

const FIELDS: Record<FormName, FormField[]> = {
  signup: ["email"],
  contact: ["email", "subject", "body"],
  reply: ["name", "site", "email", "text"],
};

export function formFields(form: FormName, values: Record<string, string>): FormFields {
  const names = FIELDS[form];
  return Object.fromEntries(names.map((name) => [name, values[name] ?? ""]));
}
