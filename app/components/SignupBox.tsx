import { type FormEvent, useEffect, useState } from "react";
import { Form } from "react-router";
import { MESSAGES, validateSignup } from "../../rules/forms.ts";
import type { FormActionData } from "../lib/form-actions.server.ts";
import { useHydrated } from "../lib/hydrated.ts";
import { postJson } from "../lib/post-json.ts";
import { updateVisitor, useVisitor } from "../lib/visitor.ts";
import { Honeypot } from "./Honeypot.tsx";

/** What the visitor sees when the server did not subscribe them (DESIGN §7.3). */
function failureMessage(status: number, error: string): string {
  if (status === 0) return MESSAGES.network;
  if (status >= 500 || !error) return MESSAGES.serverError;
  return error;
}

/**
 * SU1–SU8: 'Want updates?'. Hidden for a visitor who signed up on an earlier visit (CSS, from the
 * flag the head script sets, so it never flashes). Without JavaScript it is a plain form post whose
 * answer (`result`) carries the same messages.
 */
export function SignupBox({ result }: { result?: FormActionData }) {
  const visitor = useVisitor();
  const [emailInput, setEmailInput] = useState<string | undefined>(result?.fields.email);
  const email = emailInput ?? visitor.email;
  const [honeypot, setHoneypot] = useState("");
  const [error, setError] = useState(result && !result.ok ? (result.error ?? MESSAGES.serverError) : "");
  const [loading, setLoading] = useState(false);
  const [done, setDone] = useState(result?.ok === true);
  const hydrated = useHydrated();

  useEffect(() => {
    if (visitor.signedUp) document.documentElement.dataset.signedUp = "true";
  }, [visitor.signedUp]);

  const changeEmail = (value: string) => {
    setEmailInput(value);
    setError("");
    updateVisitor({ email: value });
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    const problem = validateSignup(email);
    if (problem) {
      setError(problem.error);
      return;
    }
    setError("");
    setLoading(true);
    const answer = await postJson("/api/user", { email, website: honeypot });
    setLoading(false);
    if (answer.ok) {
      setDone(true);
      updateVisitor({ signedUp: true });
    } else {
      setError(failureMessage(answer.status, answer.error));
    }
  };

  return (
    <section className={`signup-box${done ? " signup-done" : ""}`} aria-labelledby="signup-heading">
      <h2 id="signup-heading">Want updates?</h2>
      {done ? (
        <>
          <p className="form-success" role="status">
            Thank you for your interest :)
          </p>
          <p className="form-note">Please confirm with the link we just sent to your inbox.</p>
        </>
      ) : (
        <Form method="post" className="signup-form" noValidate onSubmit={submit}>
          <Honeypot value={honeypot} onChange={setHoneypot} />
          <label className="visually-hidden" htmlFor="signup-email">
            Email
          </label>
          <input
            id="signup-email"
            type="email"
            name="email"
            placeholder="Enter your email"
            autoComplete="email"
            value={email}
            onChange={(event) => changeEmail(event.target.value)}
            onKeyDown={(event) => {
              // SU3: Enter submits even while the form shows no button (the browser only does it with one).
              if (event.key === "Enter") {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "signup-error" : undefined}
          />
          {loading ? (
            <span className="form-loading" role="status">
              Loading...
            </span>
          ) : (
            (email || !hydrated) && (
              // Without JavaScript the button is always there: nothing could show it on typing.
              <button type="submit" className="primary-button">
                Send
              </button>
            )
          )}
          {error && (
            <p id="signup-error" className="form-error" role="alert">
              {error}
            </p>
          )}
        </Form>
      )}
    </section>
  );
}
