// The page a successful form post redirects to says so from this signed, short-lived query parameter: a link
// cannot claim a message was sent, and a forged one costs the server no render (host/app.ts).
import { mac, same } from "../newsletter/tokens.ts";

export const SENT_PARAM = "sent";
const LIFETIME_SECONDS = 10 * 60;
const TOKEN = /^([a-z]{1,20})\.(\d{1,12})\.[\w-]{43}$/;

const tokenUntil = (secret: string, form: string, expires: number) =>
  `${form}.${expires}.${mac(secret, ["sent", form, expires])}`;

export const sentToken = (secret: string, form: string, now = Date.now()) =>
  tokenUntil(secret, form, Math.floor(now / 1000) + LIFETIME_SECONDS);

/** The form `url` says was just sent, if its token is genuine and fresh. */
export function sentFormIn(url: URL, secret: string, now = Date.now()): string | undefined {
  const token = url.searchParams.get(SENT_PARAM) ?? "";
  const [, form = "", expires = "0"] = TOKEN.exec(token) ?? [];
  const fresh = Number(expires) * 1000 > now;
  return fresh && same(tokenUntil(secret, form, Number(expires)), token) ? form : undefined;
}
