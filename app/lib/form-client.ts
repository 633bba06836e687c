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

// A failed request becomes a message rather than the error screen; status 0 is the network.
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

export async function signupClientAction({ request, serverAction }: ClientActionFunctionArgs): Promise<FormAnswer> {
  const fields = await postedFields("signup", request);
  const problem = validateSignup(fields.email ?? "");
  if (problem) return formAnswer("signup", { ok: false, status: 400, ...problem }, fields);
  const answer = await askServer("signup", serverAction, fields);
  if (answer.ok) rememberSignedUp();
  return answer;
}

export async function contactClientAction({ request, serverAction }: ClientActionFunctionArgs): Promise<FormAnswer> {
  const fields = await postedFields("contact", request);
  const problem = validateContact({ email: "", subject: "", body: "", ...fields });
  if (problem) return formAnswer("contact", { ok: false, status: 400, ...problem }, fields);
  return askServer("contact", serverAction, fields);
}

// The page's own answer covers a post made without JavaScript, or before it ran.
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
