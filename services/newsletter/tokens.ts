// A confirm token is single-use only because it confirms a `pending` subscriber, and a new sign-up voids it;
// an unsubscribe token never expires, since old mails must keep their link working.
import { createHmac, timingSafeEqual } from "node:crypto";

export const CONFIRM_TOKEN_DAYS = 7;

type TokenSubject = { id: number; email_lower: string };

type ConfirmSubject = TokenSubject & { created_at: string };

export const mac = (secret: string, parts: readonly (string | number)[]) =>
  createHmac("sha256", secret).update(parts.join("\n")).digest("base64url");

const confirmTokenUntil = (secret: string, { id, email_lower, created_at }: ConfirmSubject, expires: number) =>
  `${id}.${expires}.${mac(secret, ["confirm", id, email_lower, created_at, expires])}`;

export function confirmToken(secret: string, subscriber: ConfirmSubject, now: number = Date.now()): string {
  return confirmTokenUntil(secret, subscriber, Math.floor((now + CONFIRM_TOKEN_DAYS * 24 * 60 * 60 * 1000) / 1000));
}

/** Hexadecimal: some servers change the case of an address's local part. */
export const returnPathToken = (secret: string, sendId: number, subscriberId: number) =>
  `${sendId}.${subscriberId}.${Buffer.from(mac(secret, ["return-path", sendId, subscriberId]), "base64url")
    .toString("hex")
    .slice(0, 20)}`;

export const unsubscribeToken = (secret: string, { id, email_lower }: TokenSubject) =>
  `${id}.${mac(secret, ["unsubscribe", id, email_lower])}`;

/** A token names its subscriber by id, and holds only if it equals the token made anew for that subscriber. */
export function subscriberIdOf(token: string): number | undefined {
  const id = /^([1-9]\d{0,15})\./.exec(token)?.[1];
  return id === undefined ? undefined : Number(id);
}

export function same(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function confirmTokenHolds(secret: string, token: string, subscriber: ConfirmSubject, now: number): boolean {
  const expires = Number(/^\d+\.(\d{1,12})\./.exec(token)?.[1]);
  return expires * 1000 > now && same(confirmTokenUntil(secret, subscriber, expires), token);
}

export const unsubscribeTokenHolds = (secret: string, token: string, subscriber: TokenSubject) =>
  same(unsubscribeToken(secret, subscriber), token);
