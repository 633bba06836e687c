// The owner hears of a reply once, when it first waits for them: a form's after its address is confirmed.
import type { Db } from "../db/database.ts";
import type { Outbox } from "../mail/outbox.ts";
import { type IncomingReply, type Reply, receiveReply } from "./store.ts";

export type ReplyDeps = { db: Db; outbox: Pick<Outbox, "enqueue">; siteUrl: string; ownerEmail: string };

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** The summary mail: who wrote to which page, the words, and the commands that decide. */
export function replySummary(reply: Reply, siteUrl: string) {
  const author = [reply.author_name, reply.author_url, reply.author_address].filter(Boolean).join(", ");
  const body = [
    `${oneLine(author)} replied to ${new URL(reply.target, siteUrl).href} (${reply.kind}):`,
    "",
    reply.text,
    "",
    ...(reply.source_url ? [`Source: ${reply.source_url}`, ""] : []),
    `Show it under the post: npm run replies -- approve ${reply.id}`,
    `Keep it off: npm run replies -- reject ${reply.id}`,
  ].join("\n");
  return { subject: oneLine(`Reply #${reply.id} to ${reply.target} from ${reply.author_name}`).slice(0, 200), body };
}

export async function announceReply(deps: ReplyDeps, reply: Reply) {
  await deps.outbox.enqueue({ email: reply.author_address ?? deps.ownerEmail, ...replySummary(reply, deps.siteUrl) });
}

/** The reply is stored before the owner is mailed, so an outbox that fails loses no reply. */
export async function holdReply(deps: ReplyDeps, incoming: IncomingReply) {
  const held = await receiveReply(deps.db, incoming);
  if (held.status === "pending") {
    const reply = await deps.db.selectFrom("replies").selectAll().where("id", "=", held.id).executeTakeFirstOrThrow();
    await announceReply(deps, reply);
  }
  return held;
}
