/**
 * The route actions of the two forms: one action per form, posted to by `fetcher.Form` in the
 * browser and by the plain HTML form without JavaScript, calling the same services as the JSON API.
 */
import { type ActionFunctionArgs, data, type HeadersFunction, type RouterContextProvider } from "react-router";
import type { FormResult } from "../../rules/form-services.ts";
import { MESSAGES } from "../../rules/forms.ts";
import { type FormName, formAnswer, formFields } from "./form-answer.ts";
import { formRequestContext } from "./form-context.ts";

export type FormRead =
  | { ok: true; values: Record<string, string> }
  | { ok: false; status: 400 | 415; error: typeof MESSAGES.formUnreadable };

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
const UTF_8 = new Set(["utf-8", "utf8"]);

/**
 * A form post as browsers send it: URL-encoded or multipart, in UTF-8 (the charset of every page
 * here), else 415; a body that does not parse as that type, 400. Fields that are files are ignored.
 */
export async function readForm(request: Request): Promise<FormRead> {
  const [type = "", ...parameters] = (request.headers.get("content-type") ?? "").split(";");
  const charset = parameters
    .map((parameter) => parameter.split("="))
    .find(([name = ""]) => name.trim().toLowerCase() === "charset")?.[1]
    ?.trim()
    .replace(/^"|"$/g, "")
    .toLowerCase();
  if (!FORM_TYPES.has(type.trim().toLowerCase()) || (charset !== undefined && !UTF_8.has(charset))) {
    return { ok: false, status: 415, error: MESSAGES.formUnreadable };
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, status: 400, error: MESSAGES.formUnreadable };
  }
  const values: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") values[name] = value;
  return { ok: true, values };
}

/** The answer with the outcome's status, and `Retry-After` on a 429 (for a page as for the browser). */
function respond(
  form: FormName,
  outcome: FormResult | Exclude<FormRead, { ok: true }>,
  values: Record<string, string>,
) {
  const headers: Record<string, string> = {};
  if ("retryAfter" in outcome && outcome.retryAfter !== undefined) headers["Retry-After"] = String(outcome.retryAfter);
  return data(formAnswer(form, outcome, formFields(form, values)), { status: outcome.status, headers });
}

type FormActionArgs = { context: Readonly<RouterContextProvider> };

/** SU5–SU8 from a form post already read (the confirm page reads first to tell its two forms apart). */
export async function signup({ context }: FormActionArgs, read: FormRead) {
  if (!read.ok) return respond("signup", read, {});
  const { services, clientIp } = context.get(formRequestContext);
  return respond("signup", await services.subscribe(read.values, clientIp), read.values);
}

export async function signupAction(args: ActionFunctionArgs<RouterContextProvider>) {
  return signup(args, await readForm(args.request));
}

/** CO3–CO6. */
export async function contactAction(args: ActionFunctionArgs<RouterContextProvider>) {
  const read = await readForm(args.request);
  if (!read.ok) return respond("contact", read, {});
  const { services, clientIp } = args.context.get(formRequestContext);
  return respond("contact", await services.sendMessage(read.values, clientIp), read.values);
}

/** A page re-rendered by a form post carries the action's headers (`Retry-After`). */
export const formHeaders: HeadersFunction = ({ actionHeaders }) => actionHeaders;
