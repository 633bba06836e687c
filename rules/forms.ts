// Shared by the browser forms and the server; it ships to the browser, so it imports nothing.

export const MESSAGES = {
  emailRequired: "Please enter your email.",
  emailInvalid: "Please enter a valid email.",
  subjectRequired: "Please enter a subject.",
  messageRequired: "Please enter a message.",
  emailUsed: "Sorry, this email was already used.",
  sendFailed: "Sorry, email failed to send.",
  emailTooLong: "Please enter an email of at most 254 characters.",
  subjectTooLong: "Please keep the subject to 200 characters or fewer.",
  subjectMultiline: "Please keep the subject on one line.",
  subjectControl: "Please remove the special characters from the subject.",
  messageTooLong: "Please keep the message to 5,000 characters or fewer.",
  rateLimited: "Too many attempts. Please wait a few minutes and try again.",
  network: "Could not reach the server. Please check your connection and try again.",
  formUnreadable: "The form could not be read. Please reload the page and try again.",
  serverError: "Something went wrong. Please try again.",
  serverInvalid: "Please enter the name of your server, such as mastodon.social.",
} as const;

export type FormMessage = (typeof MESSAGES)[keyof typeof MESSAGES];

export const LIMITS = {
  emailMaxLength: 254, // RFC 5321 path limit
  subjectMaxLength: 200,
  messageMaxLength: 5000,
} as const;

// One unquoted address, no \p{Cf} bidi tricks: safe in a mail header; linear, as pieces exclude their delimiters.
export const EMAIL_PATTERN =
  /^[^<>()[\]\\.,;:\s@"\p{Cc}\p{Cf}\p{Cs}]+(?:\.[^<>()[\]\\.,;:\s@"\p{Cc}\p{Cf}\p{Cs}]+)*@(?:\[(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\]|(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,})$/u;

// A subject is one mail header line.
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/u;
const CONTROL = /[^\P{Cc}\t]|\p{Cs}/u;

export type SignupField = "email";
export type ContactField = "email" | "subject" | "body";
export type FormProblem<F extends string = ContactField> = { field: F; error: FormMessage };

export type ContactInput = { email: string; subject: string; body: string };

export type FormResult =
  | { ok: true; status: 201 | 202 }
  | {
      ok: false;
      status: 400 | 409 | 429 | 500;
      error: string;
      field?: ContactField;
      retryAfter?: number;
    };
export type FormFailure = Extract<FormResult, { ok: false }>;

export const FORM_BODY_LIMIT_BYTES = 64 * 1024;

// Not trim(): it removes U+FEFF, which must stay so the pattern refuses it.
const SURROUNDING_SPACES = /^[^\S\ufeff]+|[^\S\ufeff]+$/g;

export function normalizeEmail(email: string): string {
  return email.replace(SURROUNDING_SPACES, "");
}

export function emailKey(email: string): string {
  return normalizeEmail(email).normalize("NFC").toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(normalizeEmail(email));
}

function emailPresenceAndPattern(email: string): FormProblem<"email"> | null {
  const trimmed = normalizeEmail(email);
  if (trimmed === "") return { field: "email", error: MESSAGES.emailRequired };
  if (!EMAIL_PATTERN.test(trimmed)) return { field: "email", error: MESSAGES.emailInvalid };
  return null;
}

function emailLength(email: string): FormProblem<"email"> | null {
  return normalizeEmail(email).length > LIMITS.emailMaxLength ? { field: "email", error: MESSAGES.emailTooLong } : null;
}

export function validateSignup(email: string): FormProblem<SignupField> | null {
  return emailPresenceAndPattern(email) ?? emailLength(email);
}

// Problems come in the order a visitor fills the form, then the limits.
export function validateContact(input: ContactInput): FormProblem<ContactField> | null {
  const emailProblem = emailPresenceAndPattern(input.email);
  if (emailProblem) return emailProblem;
  const subject = input.subject.trim();
  if (subject === "") return { field: "subject", error: MESSAGES.subjectRequired };
  if (input.body.trim() === "") return { field: "body", error: MESSAGES.messageRequired };
  const lengthProblem = emailLength(input.email);
  if (lengthProblem) return lengthProblem;
  if (LINE_BREAK.test(input.subject)) return { field: "subject", error: MESSAGES.subjectMultiline };
  if (CONTROL.test(subject)) return { field: "subject", error: MESSAGES.subjectControl };
  if (subject.length > LIMITS.subjectMaxLength) return { field: "subject", error: MESSAGES.subjectTooLong };
  if (input.body.length > LIMITS.messageMaxLength) return { field: "body", error: MESSAGES.messageTooLong };
  return null;
}

export function normalizeContact(input: ContactInput): ContactInput {
  return { email: normalizeEmail(input.email), subject: input.subject.trim(), body: input.body };
}
