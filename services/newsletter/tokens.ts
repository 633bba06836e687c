// A confirm token is single-use only because it confirms a `pending` subscriber, and a new sign-up voids it;
// an unsubscribe token never expires, since old mails must keep their link working.
import { createHmac, timingSafeEqual } from "node:crypto";

export const CONFIRM_TOKEN_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export type TokenSubject = { id: number; email_lower: string };

function mac(secret: string, parts: readonly (string | number)[]): string {
  return createHmac("sha256", secret).update(parts.join("\n")).digest("base64url");
}

type ConfirmSubject = TokenSubject & { created_at: string };

const confirmMac = (secret: string, { id, email_lower, created_at }: ConfirmSubject, expires: number) =>
  mac(secret, ["confirm", id, email_lower, created_at, expires]);
const unsubscribeMac = (secret: string, { id, email_lower }: TokenSubject) =>
  mac(secret, ["unsubscribe", id, email_lower]);

function sameMac(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function confirmToken(secret: string, subscriber: ConfirmSubject, now: number = Date.now()): string {
  const expires = Math.floor((now + CONFIRM_TOKEN_DAYS * DAY_MS) / 1000);
  return `${subscriber.id}.${expires}.${confirmMac(secret, subscriber, expires)}`;
}

export type ParsedConfirmToken = { id: number; expiresAt: number; signature: string };

export function parseConfirmToken(token: string): ParsedConfirmToken | null {
  const match = /^([1-9]\d{0,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  return { id: Number(match[1]), expiresAt: Number(match[2]) * 1000, signature: match[3] as string };
}

/** Expiry is checked apart. */
export function confirmTokenMatches(secret: string, token: ParsedConfirmToken, subscriber: ConfirmSubject): boolean {
  return token.id === subscriber.id && sameMac(confirmMac(secret, subscriber, token.expiresAt / 1000), token.signature);
}

export function unsubscribeToken(secret: string, subscriber: TokenSubject): string {
  return `${subscriber.id}.${unsubscribeMac(secret, subscriber)}`;
}

export function parseUnsubscribeToken(token: string): { id: number; signature: string } | null {
  const match = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  return { id: Number(match[1]), signature: match[2] as string };
}

export function unsubscribeTokenMatches(secret: string, signature: string, subscriber: TokenSubject): boolean {
  return sameMac(unsubscribeMac(secret, subscriber), signature);
}
