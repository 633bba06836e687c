/**
 * The form posts of visitors without JavaScript (the same services the JSON API uses), so both
 * forms work as plain HTML forms and answer with the same messages.
 */
import { type ActionFunctionArgs, data, type RouterContextProvider } from "react-router";
import { formRequestContext } from "./form-context.ts";

async function readFields(request: Request): Promise<Record<string, string>> {
  const form = await request.formData();
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") fields[name] = value;
  return fields;
}

export type FormActionData = { ok: boolean; error?: string; field?: string; fields: Record<string, string> };

export async function signupAction({ request, context }: ActionFunctionArgs<RouterContextProvider>) {
  const { services, clientIp } = context.get(formRequestContext);
  const fields = await readFields(request);
  const result = await services.subscribe(fields, clientIp);
  const answer: FormActionData = result.ok ? { ok: true, fields } : { ok: false, error: result.error, fields };
  return data(answer, { status: result.status });
}

export async function contactAction({ request, context }: ActionFunctionArgs<RouterContextProvider>) {
  const { services, clientIp } = context.get(formRequestContext);
  const fields = await readFields(request);
  const result = await services.sendMessage(fields, clientIp);
  const answer: FormActionData = result.ok
    ? { ok: true, fields: { email: fields.email ?? "" } }
    : { ok: false, error: result.error, field: result.field, fields };
  return data(answer, { status: result.status });
}
