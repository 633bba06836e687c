import { useRouteLoaderData } from "react-router";
import { LIMITS, REPLY_LIMITS, type ReplyField } from "../../rules/forms.ts";
import type { FormAnswer } from "../lib/form-answer.ts";
import { useFormAnswer } from "../lib/form-client.ts";
import type { loader as rootLoader } from "../root.tsx";
import { FormError, Honeypot, SendButton } from "./FormParts.tsx";

const ERROR_ID = "reply-error";

/**
 * The reply form at the end of an essay or book note. It posts as a plain form (these pages ship no
 * script), so the browser checks the limits itself and the server answers with the page.
 */
export function ReplyForm() {
  const words = useRouteLoaderData<typeof rootLoader>("root")?.site.replyForm;
  const { fetcher, answer, busy, clear } = useFormAnswer<FormAnswer>("reply");
  const failure = answer && !answer.ok ? answer : undefined;
  const field = (name: ReplyField) => ({
    id: `reply-${name}`,
    name,
    defaultValue: failure?.fields[name],
    ...(failure?.field === name && { "aria-invalid": true, "aria-describedby": ERROR_ID }),
  });
  const errorBeside = (name: ReplyField) =>
    failure?.field === name && <FormError id={ERROR_ID} message={failure.error} />;

  return (
    <section className="reply" aria-labelledby="reply-heading">
      <h2 id="reply-heading">Reply</h2>
      {answer?.ok ? (
        <p className="form-success" role="status" tabIndex={-1}>
          {words?.sent}
        </p>
      ) : (
        <>
          <p>{words?.invite}</p>
          <fetcher.Form method="post" className="reply-form" defaultShouldRevalidate={false} onChange={clear}>
            <Honeypot />
            <label htmlFor="reply-name">Name</label>
            <input type="text" autoComplete="name" required maxLength={REPLY_LIMITS.nameMaxLength} {...field("name")} />
            {errorBeside("name")}
            <label htmlFor="reply-site">Site (optional)</label>
            <input type="url" autoComplete="url" maxLength={REPLY_LIMITS.urlMaxLength} {...field("site")} />
            {errorBeside("site")}
            <label htmlFor="reply-email">Email (never shown)</label>
            <input type="email" autoComplete="email" required maxLength={LIMITS.emailMaxLength} {...field("email")} />
            {errorBeside("email")}
            <label htmlFor="reply-text">Reply</label>
            <textarea rows={6} required maxLength={REPLY_LIMITS.textMaxLength} {...field("text")} />
            {errorBeside("text")}
            {failure && !failure.field && <FormError message={failure.error} />}
            <SendButton busy={busy} busyText="Sending..." label="send reply" className="primary-button" />
          </fetcher.Form>
        </>
      )}
    </section>
  );
}
