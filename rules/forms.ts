/**
 * The rules of the two forms: the sign-up email and the contact message, and the outcome a
 * submission gets. This is the one place they live: the browser forms import it to check before
 * sending, the server imports it to check what arrives. It ships to the browser, so it depends on nothing.
 */

/** Every message a visitor can see from the forms, word for word. */
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
  /** Too many submissions from one address: not the visitor's email's fault. */
  rateLimited: "Too many attempts. Please wait a few minutes and try again.",
  /** The request never got an answer (offline, server down). */
  network: "Could not reach the server. Please check your connection and try again.",
  /** A post that is no HTML form (wrong content type, broken body): only a hand-made request gets it. */
  formUnreadable: "The form could not be read. Please reload the page and try again.",
  /** The server failed (5xx): nothing the visitor typed is wrong. */
  serverError: "Something went wrong. Please try again.",
} as const;

export type FormMessage = (typeof MESSAGES)[keyof typeof MESSAGES];

export const LIMITS = {
  /** Characters of the trimmed email (RFC 5321 path limit). */
  emailMaxLength: 254,
  /** Characters of the trimmed subject. */
  subjectMaxLength: 200,
  /** Characters of the message. */
  messageMaxLength: 5000,
} as const;

/**
 * Local part, "@", then a domain whose last label has 2+ letters, or a bracketed IPv4 address
 * (user@[192.168.0.1]). The local part has no spaces, control characters, invisible format
 * characters (\p{Cf}: the bidirectional controls that would show the address reordered, zero-width
 * characters, the soft hyphen), quotes, brackets, commas, semicolons, colons, backslashes or "@",
 * and no empty dot-separated piece; so an address that passes is always a single, unquoted address
 * that reads as it is, safe to put in a mail header.
 * Every piece is delimited by a character its neighbours exclude, so matching is linear.
 */
export const EMAIL_PATTERN =
  /^[^<>()[\]\\.,;:\s@"\p{Cc}\p{Cf}\p{Cs}]+(?:\.[^<>()[\]\\.,;:\s@"\p{Cc}\p{Cf}\p{Cs}]+)*@(?:\[(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\]|(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,})$/u;

/** Line breaks of any kind: a subject is one header line. */
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/u;
/** Control characters other than the tab, and lone surrogates (line breaks have their own message). */
const CONTROL = /[^\P{Cc}\t]|\p{Cs}/u;

export type SignupField = "email";
export type ContactField = "email" | "subject" | "body";
export type FormProblem<F extends string = ContactField> = { field: F; error: FormMessage };

export type ContactInput = { email: string; subject: string; body: string };

/** What a submission got: 201 signed up, 202 message stored for delivery, or a failure to show. */
export type FormResult =
  | { ok: true; status: 201 | 202 }
  | {
      ok: false;
      status: 400 | 409 | 429 | 500;
      /** Safe to show to the visitor as is. */
      error: string;
      /** The form field the error belongs to, when it belongs to one. */
      field?: ContactField;
      /** With status 429: seconds until a new submission will be accepted. */
      retryAfter?: number;
    };
export type FormFailure = Extract<FormResult, { ok: false }>;

/** The largest form post accepted: a 5,000-character message percent-encoded, and then some. */
export const FORM_BODY_LIMIT_BYTES = 64 * 1024;

/** Spaces around an address; not U+FEFF, which trim() takes for one: invisible, it is refused like the others. */
const SURROUNDING_SPACES = /^[^\S\ufeff]+|[^\S\ufeff]+$/g;

/** The email as stored and sent: surrounding spaces removed. */
export function normalizeEmail(email: string): string {
  return email.replace(SURROUNDING_SPACES, "");
}

/** The key that makes emails unique without regard to case. */
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

/** The first problem of a sign-up email, or null when it can be sent. */
export function validateSignup(email: string): FormProblem<SignupField> | null {
  return emailPresenceAndPattern(email) ?? emailLength(email);
}

/**
 * The first problem of a contact message, or null when it can be sent. Checked in the order a
 * visitor fills the form (email empty, email invalid, subject empty, message empty), then the
 * limits (email length, subject on one line and length, message length).
 */
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

/** The contact message as stored and sent: email and subject trimmed, the message as typed. */
export function normalizeContact(input: ContactInput): ContactInput {
  return { email: normalizeEmail(input.email), subject: input.subject.trim(), body: input.body };
}
