import { useLayoutEffect, useState } from "react";
import {
  type ClientActionFunctionArgs,
  isRouteErrorResponse,
  useActionData,
  useFetcher,
  useRouteLoaderData,
} from "react-router";
import { type FormProblem, validateContact, validateSignup } from "../../rules/forms.ts";
import { type FormAnswer, type FormFields, type FormName, formAnswer, formFields, formValues } from "./form-answer.ts";
import { rememberSignedUp } from "./visitor.ts";

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

async function clientAction(
  form: FormName,
  { request, serverAction }: ClientActionFunctionArgs,
  problemOf: (fields: FormFields) => FormProblem | null,
): Promise<FormAnswer> {
  // A copy: React Router sends the request's own body on to the server action.
  const fields = formFields(form, formValues(await request.clone().formData()));
  const problem = problemOf(fields);
  if (problem) return formAnswer(form, { ok: false, status: 400, ...problem }, fields);
  return askServer(form, serverAction, fields);
}

export async function signupClientAction(args: ClientActionFunctionArgs) {
  const answer = await clientAction("signup", args, (fields) => validateSignup(fields.email ?? ""));
  if (answer.ok) rememberSignedUp();
  return answer;
}

export const contactClientAction = (args: ClientActionFunctionArgs) =>
  clientAction("contact", args, (fields) => validateContact({ email: "", subject: "", body: "", ...fields }));

// The page's own answer covers a post made without JavaScript, or before it ran: its error, or the page it
// redirected to after a success (root.tsx reads the signed `sent` of that page's address).
export function useFormAnswer<Answer extends { form: string }>(form: Answer["form"]) {
  const fetcher = useFetcher<Answer>();
  const sent = (useRouteLoaderData("root") as { sent?: string } | undefined)?.sent === form;
  const pageAnswer =
    useActionData<Answer>() ?? (sent ? ({ form, ok: true, fields: {} } as unknown as Answer) : undefined);
  const [pageAnswerCleared, setPageAnswerCleared] = useState(false);
  const busy = fetcher.state !== "idle";
  const fromPage = !pageAnswerCleared && pageAnswer?.form === form ? pageAnswer : undefined;
  const answer = busy ? undefined : ((fetcher.data as Answer | undefined) ?? fromPage);
  const clear = () => {
    if (!answer) return;
    if (fetcher.data) fetcher.reset();
    setPageAnswerCleared(true);
  };
  // The send button gave way to "Sending...", so focus fell to the page: before the answer is painted it goes
  // to the field in error, else to the message (a page shows one form's answer at a time; fields come first).
  useLayoutEffect(() => {
    if (fetcher.data) document.querySelector<HTMLElement>('[aria-invalid="true"], .form-error, .form-success')?.focus();
  }, [fetcher.data]);
  return { fetcher, answer, busy, clear };
}
