/**
 * The forms in the browser: each route's `clientAction` checks the rules before anything is sent
 * and turns a request that never got the action's answer into a message (instead of the error
 * screen), and `useFormAnswer` gives a form its answer, whether it came through its fetcher or,
 * without JavaScript, with the page.
 */
import { useState } from "react";
import { type ClientActionFunctionArgs, isRouteErrorResponse, useActionData, useFetcher } from "react-router";
import { validateContact, validateSignup } from "../../rules/forms.ts";
import { type FormAnswer, type FormFields, type FormName, formAnswer, formFields } from "./form-answer.ts";
import { rememberSignedUp } from "./visitor.ts";

async function postedFields(form: FormName, request: Request): Promise<FormFields> {
  // A copy: React Router sends the request's own body on to the server action.
  const values: Record<string, string> = {};
  for (const [name, value] of await request.clone().formData()) if (typeof value === "string") values[name] = value;
  return formFields(form, values);
}

/**
 * The server action's answer; when there is none, why: the network (status 0), or the HTTP layer
 * in front of the actions refusing the post (403, 413: its plain-text reason) or failing (5xx).
 */
async function askServer(form: FormName, serverAction: () => Promise<unknown>, fields: FormFields) {
  try {
    return (await serverAction()) as FormAnswer;
  } catch (error) {
    if (error instanceof TypeError) return formAnswer(form, { ok: false, status: 0, error: "" }, fields);
    const status = isRouteErrorResponse(error) ? error.status : 500;
    const reason = isRouteErrorResponse(error) && status < 500 && typeof error.data === "string" ? error.data : "";
    return formAnswer(form, { ok: false, status, error: reason }, fields);
  }
}

/** The sign-up box's post: checked in the browser first, then asked of the server; a success is remembered. */
export async function signupClientAction({ request, serverAction }: ClientActionFunctionArgs): Promise<FormAnswer> {
  const fields = await postedFields("signup", request);
  const problem = validateSignup(fields.email ?? "");
  if (problem) return formAnswer("signup", { ok: false, status: 400, ...problem }, fields);
  const answer = await askServer("signup", serverAction, fields);
  if (answer.ok) rememberSignedUp();
  return answer;
}

/** The contact form's post: the four checks in the browser first, then the server sends the email. */
export async function contactClientAction({ request, serverAction }: ClientActionFunctionArgs): Promise<FormAnswer> {
  const fields = await postedFields("contact", request);
  const problem = validateContact({
    email: fields.email ?? "",
    subject: fields.subject ?? "",
    body: fields.body ?? "",
  });
  if (problem) return formAnswer("contact", { ok: false, status: 400, ...problem }, fields);
  return askServer("contact", serverAction, fields);
}

/**
 * A form's fetcher and its answer: the fetcher's, else the page's own (a post made without
 * JavaScript, or before it ran), none while a request runs (a new request clears the last error).
 * `clear` forgets the answer (editing a field clears the error and the sent state).
 */
export function useFormAnswer<Answer extends { form: string }>(form: Answer["form"]) {
  const fetcher = useFetcher<Answer>();
  const pageAnswer = useActionData<Answer>() as Answer | undefined;
  const [pageAnswerCleared, setPageAnswerCleared] = useState(false);
  const busy = fetcher.state !== "idle";
  const fromPage = !pageAnswerCleared && pageAnswer?.form === form ? pageAnswer : undefined;
  const answer = busy ? undefined : ((fetcher.data as Answer | undefined) ?? fromPage);
  const clear = () => {
    if (!answer) return;
    if (fetcher.data) fetcher.reset();
    setPageAnswerCleared(true);
  };
  return { fetcher, answer, busy, clear };
}
