import type { FormAnswer } from "../lib/form-answer.ts";
import { useFormAnswer } from "../lib/form-client.ts";
import { updateVisitor, useVisitor } from "../lib/visitor.ts";
import { Honeypot } from "./Honeypot.tsx";

// Hidden by CSS from the shell script's flag, so it never flashes for a visitor who signed up before.
export function SignupBox() {
  const visitor = useVisitor();
  const { fetcher, answer, busy, clear } = useFormAnswer<FormAnswer>("signup");
  const error = answer && !answer.ok ? answer.error : "";

  return (
    <section className={`signup-box${answer?.ok ? " signup-done" : ""}`} aria-labelledby="signup-heading">
      <h2 id="signup-heading">Want updates?</h2>
      {answer?.ok ? (
        <>
          <p className="form-success" role="status">
            Thank you for your interest :)
          </p>
          <p className="form-note">Please confirm with the link we just sent to your inbox.</p>
        </>
      ) : (
        <fetcher.Form method="post" className="signup-form" noValidate defaultShouldRevalidate={false}>
          <Honeypot />
          <label className="visually-hidden" htmlFor="signup-email">
            Email
          </label>
          <input
            id="signup-email"
            type="email"
            name="email"
            placeholder="Enter your email"
            autoComplete="email"
            defaultValue={answer?.fields.email ?? visitor.email}
            onChange={(event) => {
              clear();
              updateVisitor({ email: event.target.value });
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "signup-error" : undefined}
          />
          {busy ? (
            <span className="form-loading" role="status">
              Loading...
            </span>
          ) : (
            // Enter submits through this button even while CSS hides it.
            <button type="submit" className="primary-button signup-send">
              Send
            </button>
          )}
          {error && (
            <p id="signup-error" className="form-error" role="alert">
              {error}
            </p>
          )}
        </fetcher.Form>
      )}
    </section>
  );
}
