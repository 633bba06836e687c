import { Form } from "react-router";
import type { ContactField } from "../../rules/forms.ts";
import type { FormAnswer } from "../lib/form-answer.ts";
import { useFormAnswer } from "../lib/form-client.ts";
import { updateVisitor, useVisitor } from "../lib/visitor.ts";
import { FormError, Honeypot, SendButton } from "./FormParts.tsx";

const ERROR_ID = "contact-error";

export function ContactForm() {
  const visitor = useVisitor();
  const { fetcher, answer, busy, clear } = useFormAnswer<FormAnswer>("contact");

  if (answer?.ok) {
    return (
      <div className="contact-sent">
        <p className="form-success" role="status" tabIndex={-1}>
          I'll email you back shortly :)
        </p>
        {/* Without JavaScript this loads an empty form; with it, the form comes back in place. */}
        <Form
          method="get"
          action="/contact"
          onSubmit={(event) => {
            event.preventDefault();
            clear();
          }}
        >
          <button type="submit" className="primary-button">
            Send another email
          </button>
        </Form>
      </div>
    );
  }

  const failure = answer && !answer.ok ? answer : undefined;
  const field = (name: ContactField, id: string = name) => ({
    id: `contact-${id}`,
    name,
    defaultValue: failure?.fields[name],
    ...(failure?.field === name && { "aria-invalid": true, "aria-describedby": ERROR_ID }),
  });

  return (
    <fetcher.Form method="post" className="contact-form" noValidate defaultShouldRevalidate={false} onChange={clear}>
      <Honeypot />
      <label htmlFor="contact-email">Email</label>
      <input
        type="email"
        autoComplete="email"
        {...field("email")}
        defaultValue={failure?.fields.email ?? visitor.email}
        onChange={(event) => updateVisitor({ email: event.target.value })}
      />
      <label htmlFor="contact-subject">Subject</label>
      <input type="text" {...field("subject")} />
      <label htmlFor="contact-message">Message</label>
      <textarea rows={8} {...field("body", "message")} />
      {failure && <FormError id={ERROR_ID} message={failure.error} />}
      <SendButton busy={busy} busyText="Sending..." label="send" className="primary-button" />
    </fetcher.Form>
  );
}
