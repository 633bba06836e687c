/**
 * The one place a form's outcome becomes the words the visitor reads (app/lib/form-answer.ts): the
 * same for an answer that came through `useFetcher` and for a page re-rendered without JavaScript.
 */
import { describe, expect, test } from "vitest";
import { formAnswer, formFields } from "../../app/lib/form-answer.ts";
import { MESSAGES } from "../../rules/forms.ts";

const typed = { email: "me@example.com", subject: "Hi", body: "Hello" };

describe("sign-up", () => {
  test("success keeps only the email", () => {
    expect(formAnswer("signup", { ok: true, status: 201 }, { email: "me@example.com" })).toEqual({
      form: "signup",
      ok: true,
      fields: { email: "me@example.com" },
    });
  });

  test("the services' messages show as they are", () => {
    for (const error of [MESSAGES.emailInvalid, MESSAGES.emailUsed, MESSAGES.rateLimited]) {
      const status = error === MESSAGES.emailUsed ? 409 : error === MESSAGES.rateLimited ? 429 : 400;
      expect(formAnswer("signup", { ok: false, status, error }, {})).toMatchObject({ ok: false, error });
    }
    expect(
      formAnswer("signup", { ok: false, status: 400, error: MESSAGES.emailRequired, field: "email" }, {}),
    ).toMatchObject({ error: MESSAGES.emailRequired, field: "email" });
  });

  test("other failures say what happened, never that the email was used", () => {
    expect(formAnswer("signup", { ok: false, status: 0, error: "" }, {})).toMatchObject({ error: MESSAGES.network });
    expect(formAnswer("signup", { ok: false, status: 500, error: "boom" }, {})).toMatchObject({
      error: MESSAGES.serverError,
    });
    expect(formAnswer("signup", { ok: false, status: 413, error: "" }, {})).toMatchObject({
      error: MESSAGES.serverError,
    });
    expect(formAnswer("signup", { ok: false, status: 415, error: MESSAGES.formUnreadable }, {})).toMatchObject({
      error: MESSAGES.formUnreadable,
    });
  });
});

describe("contact", () => {
  test("success keeps only the email: subject and message start empty again", () => {
    expect(formAnswer("contact", { ok: true, status: 202 }, typed)).toEqual({
      form: "contact",
      ok: true,
      fields: { email: "me@example.com" },
    });
  });

  test("a field's problem keeps what was typed and names the field", () => {
    expect(
      formAnswer("contact", { ok: false, status: 400, error: MESSAGES.subjectRequired, field: "subject" }, typed),
    ).toEqual({ form: "contact", ok: false, error: MESSAGES.subjectRequired, field: "subject", fields: typed });
    expect(formAnswer("contact", { ok: false, status: 429, error: MESSAGES.rateLimited }, typed)).toMatchObject({
      error: MESSAGES.rateLimited,
    });
  });

  test("anything else is 'Sorry, email failed to send.'", () => {
    for (const status of [0, 400, 403, 413, 415, 500, 503]) {
      expect(formAnswer("contact", { ok: false, status, error: "Not for the visitor" }, typed)).toMatchObject({
        error: MESSAGES.sendFailed,
      });
    }
  });
});

test("a form's fields are read from what was posted, the honeypot and strangers left out", () => {
  expect(formFields("signup", { email: "a@b.co", website: "", extra: "x" })).toEqual({ email: "a@b.co" });
  expect(formFields("contact", { email: "a@b.co", website: "bot" })).toEqual({
    email: "a@b.co",
    subject: "",
    body: "",
  });
});
