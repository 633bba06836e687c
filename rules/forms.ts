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
  nameRequired: "Please enter your name.",
  nameTooLong: "Please keep your name to 100 characters or fewer.",
  nameMultiline: "Please keep your name on one line.",
  siteInvalid: "Please enter a web address starting with http:// or https://, or leave it empty.",
  siteTooLong: "Please enter a web address of at most 2,000 characters.",
  replyRequired: "Please write your reply.",
  replyTooLong: "Please keep your reply to 10,000 characters or fewer.",
} as const;

export type FormMessage = (typeof MESSAGES)[keyof typeof MESSAGES];

export const LIMITS = {
  emailMaxLength: 254, // RFC 5321 path limit
  subjectMaxLength: 200,
  messageMaxLength: 5000,
} as const;

/** Every door of the replies store keeps to these, the form's fields and messages too. */
export const REPLY_LIMITS = { nameMaxLength: 100, urlMaxLength: 2000, textMaxLength: 10_000 } as const;

// One unquoted address, no \p{Cf} bidi tricks: safe in a mail header; linear, as pieces exclude their delimiters.
export const EMAIL_PATTERN =
  /^[^<>()[\]\\.,;:\s@"\p{Cc}\p{Cf}\p{Cs}]+(?:\.[^<>()[\]\\.,;:\s@"\p{Cc}\p{Cf}\p{Cs}]+)*@(?:\[(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\]|(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,})$/u;

// A subject is one mail header line.
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/u;
const CONTROL = /[^\P{Cc}\t]|\p{Cs}/u;

export type SignupField = "email";
export type ContactField = "email" | "subject" | "body";
export type ReplyField = "name" | "site" | "email" | "text";
export type FormField = ContactField | ReplyField;
export type FormProblem<F extends string = ContactField> = { field: F; error: FormMessage };

export type ContactInput = { email: string; subject: string; body: string };
export type ReplyInput = Record<ReplyField, string>;

export type FormResult =
  | { ok: true; status: 201 | 202 }
  | {
      ok: false;
      status: 400 | 409 | 429 | 500;
      error: string;
      field?: FormField;
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

export function isWebUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

// A name goes into the owner's mail subject, so it is one line without control characters.
const NAME_CONTROL = /\p{Cc}/u;

export function validateReply(input: ReplyInput): FormProblem<ReplyField> | null {
  const name = input.name.trim();
  if (name === "") return { field: "name", error: MESSAGES.nameRequired };
  const site = input.site.trim();
  if (site !== "" && !isWebUrl(site)) return { field: "site", error: MESSAGES.siteInvalid };
  const emailProblem = emailPresenceAndPattern(input.email);
  if (emailProblem) return emailProblem;
  if (input.text.trim() === "") return { field: "text", error: MESSAGES.replyRequired };
  if (LINE_BREAK.test(name) || NAME_CONTROL.test(name)) return { field: "name", error: MESSAGES.nameMultiline };
  if (name.length > REPLY_LIMITS.nameMaxLength) return { field: "name", error: MESSAGES.nameTooLong };
  if (site.length > REPLY_LIMITS.urlMaxLength) return { field: "site", error: MESSAGES.siteTooLong };
  const lengthProblem = emailLength(input.email);
  if (lengthProblem) return lengthProblem;
  if (input.text.length > REPLY_LIMITS.textMaxLength) return { field: "text", error: MESSAGES.replyTooLong };
  return null;
}
