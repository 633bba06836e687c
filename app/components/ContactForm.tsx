import { Form } from "react-router";
import type { ContactField } from "../../rules/forms.ts";
import type { FormAnswer } from "../lib/form-answer.ts";
import { useFormAnswer } from "../lib/form-client.ts";
import { updateVisitor, useVisitor } from "../lib/visitor.ts";
import { Honeypot } from "./Honeypot.tsx";

/**
 * R11, CO1–CO7: email, subject and message, posting to the contact route's action (contactAction,
 * with contactClientAction in the browser, which checks them in the order of CO5 first). A message
 * that belongs to a field shows beside it, and again in the block above the button (CO4).
 */
export function ContactForm() {
  const visitor = useVisitor();
  const { fetcher, answer, busy, clear } = useFormAnswer<FormAnswer>("contact");

  if (answer?.ok) {
    return (
      <div className="contact-sent">
        <p className="form-success" role="status">
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
  /** The field's own message, linked to its input. */
  const fieldProblem = (field: ContactField) => {
    const id = `contact-${field}-error`;
    const message = failure?.field === field ? failure.error : "";
    return {
      input: { "aria-invalid": message ? true : undefined, "aria-describedby": message ? id : undefined },
      message: message && (
        <p id={id} className="field-error">
          {message}
        </p>
      ),
    };
  };
  const email = fieldProblem("email");
  const subject = fieldProblem("subject");
  const body = fieldProblem("body");

  return (
    // CO7: any change clears the error.
    <fetcher.Form method="post" className="contact-form" noValidate defaultShouldRevalidate={false} onChange={clear}>
      <Honeypot />
      <label htmlFor="contact-email">Email</label>
      <input
        id="contact-email"
        type="email"
        name="email"
        autoComplete="email"
        defaultValue={failure?.fields.email ?? visitor.email}
        onChange={(event) => updateVisitor({ email: event.target.value })}
        {...email.input}
      />
      {email.message}
      <label htmlFor="contact-subject">Subject</label>
      <input
        id="contact-subject"
        type="text"
        name="subject"
        defaultValue={failure?.fields.subject}
        {...subject.input}
      />
      {subject.message}
      <label htmlFor="contact-message">Message</label>
      <textarea id="contact-message" name="body" rows={8} defaultValue={failure?.fields.body} {...body.input} />
      {body.message}
      {failure && (
        <p className="form-error" role="alert">
          {failure.error}
        </p>
      )}
      {busy ? (
        <span className="form-loading" role="status">
          Sending...
        </span>
      ) : (
        <button type="submit" className="primary-button">
          send
        </button>
      )}
    </fetcher.Form>
  );
}
