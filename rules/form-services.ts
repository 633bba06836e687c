/**
 * The contract between the app's form actions and the server's services: what the server hands to
 * every request (server/http/app.ts) and the app's actions call. The context key itself is the app's
 * (app/lib/form-context.ts, exported by app/entry.server.tsx), so the one copy of it is the built app's.
 */
import type { ContactField } from "./forms.ts";

export type FormSuccess = { ok: true; status: 201 | 202 };
export type FormFailure = {
  ok: false;
  status: 400 | 409 | 429 | 500;
  /** Safe to show to the visitor as is. */
  error: string;
  /** The form field the error belongs to, when it belongs to one. */
  field?: ContactField;
  /** With status 429: seconds until a new submission will be accepted. */
  retryAfter?: number;
};
export type FormResult = FormSuccess | FormFailure;

export type FormServices = {
  /** API1/SU8: `{ email, website? }` → 201 created, 409 already used, 400, 429 or 500. */
  subscribe(input: unknown, ip: string | undefined): Promise<FormResult>;
  /** API2: `{ email, subject, body, website? }` → 202 stored for delivery, 400, 429 or 500. */
  sendMessage(input: unknown, ip: string | undefined): Promise<FormResult>;
};

/** What the newsletter's confirm and unsubscribe pages ask the server (server/backend.ts answers). */
export type NewsletterLinks = {
  /** `valid`: a pending sign-up the button confirms; `confirmed`: already done; `invalid`: forged, expired or used. */
  checkConfirm(token: string): Promise<"valid" | "confirmed" | "invalid">;
  confirm(token: string): Promise<"confirmed" | "invalid">;
  /** `valid`: the token names a subscriber (whatever their status). */
  checkUnsubscribe(token: string): Promise<"valid" | "invalid">;
  unsubscribe(token: string): Promise<"unsubscribed" | "invalid">;
};

export type FormRequestContext = {
  services: FormServices;
  newsletter: NewsletterLinks;
  clientIp: string | undefined;
};

/** The largest form post accepted: a 5,000-character message percent-encoded, and then some. */
export const FORM_BODY_LIMIT_BYTES = 64 * 1024;
