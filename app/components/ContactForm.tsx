import { type FormEvent, useState } from "react";
import { Form } from "react-router";
import { MESSAGES, validateContact } from "../../rules/forms.ts";
import type { FormActionData } from "../lib/form-actions.server.ts";
import { postJson } from "../lib/post-json.ts";
import { updateVisitor, useVisitor } from "../lib/visitor.ts";
import { Honeypot } from "./Honeypot.tsx";

/**
 * R11, CO1–CO7: email, subject and message, checked in the order of CO5 before anything is sent.
 * Without JavaScript it is a plain form post whose answer (`result`) carries the same messages.
 */
export function ContactForm({ result }: { result?: FormActionData }) {
  const visitor = useVisitor();
  const [emailInput, setEmailInput] = useState<string | undefined>(result?.fields.email);
  const email = emailInput ?? visitor.email;
  const [subject, setSubject] = useState(result && !result.ok ? (result.fields.subject ?? "") : "");
  const [body, setBody] = useState(result && !result.ok ? (result.fields.body ?? "") : "");
  const [honeypot, setHoneypot] = useState("");
  const [error, setError] = useState(result && !result.ok ? (result.error ?? MESSAGES.sendFailed) : "");
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(result?.ok === true);

  /** CO7: any change clears the error and the sent state. */
  const edit = (apply: () => void) => {
    apply();
    setError("");
    setSent(false);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const problem = validateContact({ email, subject, body });
    if (problem) {
      setError(problem.error);
      return;
    }
    setError("");
    setSending(true);
    const answer = await postJson("/api/email", { email, subject, body, website: honeypot });
    setSending(false);
    if (answer.ok) {
      setSubject("");
      setBody("");
      setSent(true);
    } else {
      // The visitor can fix a 400 or wait out a 429; anything else is our failure (CO6).
      setError(answer.status === 400 || answer.status === 429 ? answer.error : MESSAGES.sendFailed);
    }
  };

  if (sent) {
    return (
      <div className="contact-sent">
        <p className="form-success" role="status">
          I'll email you back shortly :)
        </p>
        {/* Without JavaScript this reloads an empty form; with it, the form comes back in place. */}
        <Form
          method="get"
          action="/contact"
          onSubmit={(event) => {
            event.preventDefault();
            setSent(false);
          }}
        >
          <button type="submit" className="primary-button">
            Send another email
          </button>
        </Form>
      </div>
    );
  }

  return (
    <Form method="post" className="contact-form" noValidate onSubmit={submit}>
      <Honeypot value={honeypot} onChange={setHoneypot} />
      <label htmlFor="contact-email">Email</label>
      <input
        id="contact-email"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(event) =>
          edit(() => {
            setEmailInput(event.target.value);
            updateVisitor({ email: event.target.value });
          })
        }
      />
      <label htmlFor="contact-subject">Subject</label>
      <input
        id="contact-subject"
        type="text"
        name="subject"
        value={subject}
        onChange={(event) => edit(() => setSubject(event.target.value))}
      />
      <label htmlFor="contact-message">Message</label>
      <textarea
        id="contact-message"
        name="body"
        rows={8}
        value={body}
        onChange={(event) => edit(() => setBody(event.target.value))}
      />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {sending ? (
        <span className="form-loading" role="status">
          Sending...
        </span>
      ) : (
        <button type="submit" className="primary-button">
          send
        </button>
      )}
    </Form>
  );
}
