/**
 * The newsletter's link tokens, signed with the site's secret (HMAC-SHA256), so nobody can make
 * one for an address they do not read, and a token works for its own subscriber only.
 *
 * - Confirm: `<id>.<expires>.<mac>`, the MAC over the purpose, the subscriber id, the email key,
 *   the consent time and the expiry. It expires after 7 days; it is single-use because it only
 *   confirms a `pending` subscriber, and a later sign-up (a new consent time) voids it.
 * - Unsubscribe: `<id>.<mac>`, the MAC over the purpose, the id and the email key. It never
 *   expires (old mails must keep their link working) and names nobody: the id alone does nothing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const CONFIRM_TOKEN_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export type TokenSubject = { id: number; email_lower: string };

function mac(secret: string, parts: readonly (string | number)[]): string {
  return createHmac("sha256", secret).update(parts.join("\n")).digest("base64url");
}

function sameMac(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function confirmToken(
  secret: string,
  subscriber: TokenSubject & { created_at: string },
  now: number = Date.now(),
): string {
  const expires = Math.floor((now + CONFIRM_TOKEN_DAYS * DAY_MS) / 1000);
  const signature = mac(secret, ["confirm", subscriber.id, subscriber.email_lower, subscriber.created_at, expires]);
  return `${subscriber.id}.${expires}.${signature}`;
}

export type ParsedConfirmToken = { id: number; expiresAt: number; signature: string };

/** The parts of a confirm token, or null when it is not shaped like one. */
export function parseConfirmToken(token: string): ParsedConfirmToken | null {
  const match = /^([1-9]\d{0,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  return { id: Number(match[1]), expiresAt: Number(match[2]) * 1000, signature: match[3] as string };
}

/** Whether a parsed confirm token was made for this subscriber and this sign-up (expiry checked apart). */
export function confirmTokenMatches(
  secret: string,
  token: ParsedConfirmToken,
  subscriber: TokenSubject & { created_at: string },
): boolean {
  const expected = mac(secret, [
    "confirm",
    subscriber.id,
    subscriber.email_lower,
    subscriber.created_at,
    token.expiresAt / 1000,
  ]);
  return token.id === subscriber.id && sameMac(expected, token.signature);
}

export function unsubscribeToken(secret: string, subscriber: TokenSubject): string {
  return `${subscriber.id}.${mac(secret, ["unsubscribe", subscriber.id, subscriber.email_lower])}`;
}

/** The subscriber id an unsubscribe token claims, or null when it is not shaped like one. */
export function parseUnsubscribeToken(token: string): { id: number; signature: string } | null {
  const match = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  return { id: Number(match[1]), signature: match[2] as string };
}

export function unsubscribeTokenMatches(secret: string, signature: string, subscriber: TokenSubject): boolean {
  return sameMac(mac(secret, ["unsubscribe", subscriber.id, subscriber.email_lower]), signature);
}
