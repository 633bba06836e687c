import type { FormAnswer } from "../lib/form-answer.ts";
import { useFormAnswer } from "../lib/form-client.ts";
import { updateVisitor, useVisitor } from "../lib/visitor.ts";
import { FormError, Honeypot, SendButton } from "./FormParts.tsx";

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
          <p className="form-success" role="status" tabIndex={-1}>
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
          {/* Enter submits through this button even while CSS hides it. */}
          <SendButton busy={busy} busyText="Loading..." label="Send" className="primary-button signup-send" />
          {error && <FormError id="signup-error" message={error} />}
        </fetcher.Form>
      )}
    </section>
  );
}
