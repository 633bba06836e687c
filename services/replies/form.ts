// The form's door: a reply is stored unconfirmed, and only the link mailed to its address sends it to the owner,
// so nobody can put words under a post in someone else's name.
import type { Site } from "../../catalogue/schema.ts";
import { fillTemplate } from "../../catalogue/template.ts";
import { type FormResult, MESSAGES, normalizeEmail, validateReply } from "../../rules/forms.ts";
import { type FormDeps, HONEYPOT_FIELD, overLimit, readFields } from "../forms/submission.ts";
import { insertMessage, messageIdDomainOf } from "../mail/outbox.ts";
import { mac, same } from "../newsletter/tokens.ts";
import { announceReply, type ReplyDeps } from "./announce.ts";
import { confirmReply, getReply, type Reply, receiveReply } from "./store.ts";

export type ReplyWords = Site["replies"];

/** The post replied to: its path is the reply's target, its title names it in the mail. */
export type RepliedPage = { path: string; title: string };

const REPLY_CONFIRM_PATH = "/replies/confirm";

type TokenSubject = Pick<Reply, "id" | "author_address">;

// No expiry: the token confirms only an unconfirmed reply, and only the address it was mailed to has it.
export const replyConfirmToken = (secret: string, { id, author_address }: TokenSubject) =>
  `${id}.${mac(secret, ["confirm-reply", id, author_address ?? ""])}`;

export const replyConfirmUrl = (siteUrl: string, token: string) =>
  `${siteUrl}${REPLY_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;

export function confirmationMail(words: ReplyWords["mail"], page: RepliedPage, link: string) {
  return {
    subject: fillTemplate(words.subject, { title: page.title }),
    body: fillTemplate(words.body, { title: page.title, link }),
  };
}

export async function submitReply(
  deps: FormDeps & { words: ReplyWords },
  page: RepliedPage,
  input: unknown,
  ip: string | undefined,
): Promise<FormResult> {
  const fields = readFields(input, ["name", "site", "email", "text", HONEYPOT_FIELD]);
  if (!fields.ok) return fields.failure;
  if (fields.value[HONEYPOT_FIELD] !== "") return { ok: true, status: 202 };
  // A browser sends a textarea's line breaks as CR LF, which its maxlength counts as one character.
  const reply = { ...fields.value, text: fields.value.text.replace(/\r\n?/g, "\n") };
  const problem = validateReply(reply);
  if (problem) return { ok: false, status: 400, error: problem.error, field: problem.field };
  const limited = await overLimit(deps, "reply", ip, MESSAGES.serverError);
  if (limited) return limited;
  const { name, text } = reply;
  const site = reply.site.trim();
  const address = normalizeEmail(reply.email);
  try {
    const { db } = deps.database;
    const held = await receiveReply(db, {
      kind: "form",
      target: page.path,
      author: { name, address, ...(site && { url: site }) },
      text,
      writtenAt: new Date(),
    });
    // A blocked sender is answered as anyone else, and mailed nothing.
    if (held.status === "unconfirmed") {
      const { siteUrl, secretKey, mailFrom } = deps.config;
      const link = replyConfirmUrl(siteUrl, replyConfirmToken(secretKey, { id: held.id, author_address: address }));
      await insertMessage(
        db,
        { kind: "confirmation", email: address, ...confirmationMail(deps.words.mail, page, link) },
        { messageIdDomain: messageIdDomainOf(mailFrom), now: Date.now() },
      );
      deps.outbox.nudge();
    }
    return { ok: true, status: 202 };
  } catch (error) {
    deps.log("storing a reply failed", error);
    return { ok: false, status: 500, error: MESSAGES.serverError };
  }
}

export type ReplyLinkState = "ready" | "confirmed" | "invalid";

const TOKEN = /^([1-9]\d{0,15})\.[\w-]{43}$/;

async function replyOfToken(deps: Pick<ReplyDeps, "db">, secret: string, token: string) {
  const id = TOKEN.exec(token)?.[1];
  if (id === undefined) return undefined;
  const reply = await getReply(deps.db, Number(id));
  return reply?.kind === "form" && same(replyConfirmToken(secret, reply), token) ? reply : undefined;
}

const stateOf = (reply: Reply | undefined): ReplyLinkState =>
  reply === undefined || reply.status === "blocked"
    ? "invalid"
    : reply.status === "unconfirmed"
      ? "ready"
      : "confirmed";

/** What the link's page shows: a button while the reply waits for it, else what came of it. */
export async function replyLinkState(deps: Pick<ReplyDeps, "db">, secret: string, token: string) {
  return stateOf(await replyOfToken(deps, secret, token));
}

/** The owner is mailed only by the confirmation that made the reply pending: a second one changes nothing. */
export async function confirmFormReply(deps: ReplyDeps, secret: string, token: string): Promise<ReplyLinkState> {
  const reply = await replyOfToken(deps, secret, token);
  if (!reply) return "invalid";
  const confirmed = await confirmReply(deps.db, reply.id);
  if (confirmed) await announceReply(deps, confirmed);
  return stateOf(confirmed ?? reply);
}
