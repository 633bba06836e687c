// Every door (fediverse, webmention, form) stores a reply here before it answers the sender.
import type { Selectable } from "kysely";
import { replyHtml } from "../../catalogue/safe-html.ts";
import { isValidEmail, isWebUrl, REPLY_LIMITS } from "../../rules/forms.ts";
import type { Db, RepliesTable, ReplyKind, ReplyStatus } from "../db/database.ts";

export type Reply = Selectable<RepliesTable>;

export type IncomingReply = {
  kind: ReplyKind;
  /** The site path replied to, such as /write/fear. */
  target: string;
  author: { name: string; url?: string; address?: string };
  /** Plain text: a door that receives HTML turns it to text first. */
  text: string;
  sourceUrl?: string;
  writtenAt: Date;
};

/** Whatever door a reply came through, the same bounds: a door turns this into its own answer (a 400, a refusal). */
export class ReplyRefused extends Error {
  constructor(
    readonly field: "target" | "name" | "url" | "address" | "text" | "source" | "writtenAt",
    reason: string,
  ) {
    super(`The reply's ${field} ${reason}.`);
  }
}

const TARGET = /^\/(?:write|notes)\/[a-z0-9][a-z0-9-]*$/;

/** An essay's or a book note's path: the only pages a reply may answer. */
export const isReplyTarget = (path: string) => TARGET.test(path);
// biome-ignore lint/suspicious/noControlCharactersInRegex: a name goes into a mail's subject, where CR/LF would start a header.
const CONTROL = /[\u0000-\u001f\u007f]/;

function checkReply({ target, author, text, sourceUrl, writtenAt }: IncomingReply) {
  if (!isReplyTarget(target)) throw new ReplyRefused("target", "is not an essay or a book note of this site");
  const name = author.name.trim();
  if (!name || name.length > REPLY_LIMITS.nameMaxLength) {
    throw new ReplyRefused("name", `must have 1 to ${REPLY_LIMITS.nameMaxLength} characters`);
  }
  if (CONTROL.test(name)) throw new ReplyRefused("name", "must be one line");
  for (const [field, url] of [
    ["url", author.url],
    ["source", sourceUrl],
  ] as const) {
    if (url !== undefined && (url.length > REPLY_LIMITS.urlMaxLength || !isWebUrl(url))) {
      throw new ReplyRefused(field, "must be an http or https address");
    }
  }
  if (author.address !== undefined && !isValidEmail(author.address))
    throw new ReplyRefused("address", "is not an email address");
  if (!text.trim() || text.length > REPLY_LIMITS.textMaxLength) {
    throw new ReplyRefused("text", `must have 1 to ${REPLY_LIMITS.textMaxLength} characters`);
  }
  if (Number.isNaN(writtenAt.getTime())) throw new ReplyRefused("writtenAt", "is not a date");
}

export type Sender = { actorUrl?: string; domain?: string; address?: string };

const hostOf = (url: string | undefined) => {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

/** What a block may name, as it is stored: a URL without its fragment, a host, an address, all in lower case. */
export function blockKeyOf(value: string): string {
  const trimmed = value.trim().toLowerCase();
  if (/^https?:\/\//.test(trimmed)) {
    const url = new URL(trimmed);
    url.hash = "";
    return url.href;
  }
  return trimmed;
}

/** The keys a sender is known by: its actor URL, its address, and its domain with each parent domain. */
function senderKeys({ actorUrl, domain, address }: Sender): string[] {
  const keys: string[] = [];
  if (actorUrl) keys.push(blockKeyOf(actorUrl));
  if (address) keys.push(blockKeyOf(address));
  const hosts = [domain, hostOf(actorUrl), address?.split("@").pop()].filter((host): host is string => !!host);
  for (const host of hosts) {
    const labels = host.toLowerCase().split(".");
    for (let start = 0; start < labels.length - 1; start++) keys.push(labels.slice(start).join("."));
  }
  return [...new Set(keys)];
}

async function matchingBlocks(db: Db, sender: Sender) {
  const keys = senderKeys(sender);
  if (keys.length === 0) return [];
  return db.selectFrom("reply_blocks").select(["id", "value"]).where("value", "in", keys).execute();
}

export async function senderBlocked(db: Db, sender: Sender): Promise<boolean> {
  return (await matchingBlocks(db, sender)).length > 0;
}

/**
 * A blocked sender's reply is kept as `blocked` (never shown, never mailed about) and counted on the
 * block; a form's reply waits for its address to be confirmed; any other is pending the owner.
 */
export async function receiveReply(db: Db, reply: IncomingReply): Promise<{ id: number; status: ReplyStatus }> {
  checkReply(reply);
  const sender = {
    actorUrl: reply.author.url,
    domain: hostOf(reply.sourceUrl),
    address: reply.author.address,
  };
  return db.transaction().execute(async (trx) => {
    const blocks = await matchingBlocks(trx, sender);
    const status: ReplyStatus = blocks.length > 0 ? "blocked" : reply.kind === "form" ? "unconfirmed" : "pending";
    const row = await trx
      .insertInto("replies")
      .values({
        kind: reply.kind,
        target: reply.target,
        author_name: reply.author.name.trim(),
        author_url: reply.author.url ?? null,
        author_address: reply.author.address ?? null,
        text: reply.text,
        html: replyHtml(reply.text),
        source_url: reply.sourceUrl ?? null,
        written_at: reply.writtenAt.toISOString(),
        received_at: new Date().toISOString(),
        status,
      })
      .returning(["id", "status"])
      .executeTakeFirstOrThrow();
    if (blocks.length > 0) {
      await trx
        .updateTable("reply_blocks")
        .set((eb) => ({ dropped: eb("dropped", "+", 1) }))
        .where(
          "id",
          "in",
          blocks.map((block) => block.id),
        )
        .execute();
    }
    return row;
  });
}

export async function getReply(db: Db, id: number): Promise<Reply | undefined> {
  return db.selectFrom("replies").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listReplies(db: Db, { status }: { status?: ReplyStatus } = {}): Promise<Reply[]> {
  let query = db.selectFrom("replies").selectAll().orderBy("id");
  if (status) query = query.where("status", "=", status);
  return query.execute();
}

/** Approved replies to one page, in the order they were written. */
export async function approvedReplies(db: Db, target: string): Promise<Reply[]> {
  return db
    .selectFrom("replies")
    .selectAll()
    .where("target", "=", target)
    .where("status", "=", "approved")
    .orderBy("written_at")
    .orderBy("id")
    .execute();
}

/**
 * Each page with approved replies and a version of its list, which changes with every approval or
 * rejection: the host renders such a page per request and keeps it until the version moves.
 */
export async function approvedVersions(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("replies")
    .select(["target", "id"])
    .where("status", "=", "approved")
    .orderBy("target")
    .orderBy("id")
    .execute();
  const versions = new Map<string, string>();
  for (const { target, id } of rows) {
    const earlier = versions.get(target);
    versions.set(target, earlier === undefined ? String(id) : `${earlier}.${id}`);
  }
  return versions;
}

/**
 * The owner's decision on a reply that reached them: an unconfirmed or blocked one cannot be approved,
 * since its sender has not shown they are who they say, or is one the owner refused.
 */
export async function moderateReply(db: Db, id: number, decision: "approved" | "rejected"): Promise<Reply | undefined> {
  const from: ReplyStatus[] = decision === "approved" ? ["pending", "rejected"] : ["pending", "approved"];
  return db
    .updateTable("replies")
    .set({ status: decision })
    .where("id", "=", id)
    .where("status", "in", from)
    .returningAll()
    .executeTakeFirst();
}

/** A form reply whose address was confirmed goes to the owner; confirming twice changes nothing. */
export async function confirmReply(db: Db, id: number): Promise<Reply | undefined> {
  return db
    .updateTable("replies")
    .set({ status: "pending" })
    .where("id", "=", id)
    .where("status", "=", "unconfirmed")
    .returningAll()
    .executeTakeFirst();
}

/** Blocks an actor URL, a domain or an address; the sender's waiting replies are blocked with it. */
export async function blockSender(db: Db, value: string): Promise<{ value: string; held: number }> {
  const key = blockKeyOf(value);
  if (!key || /\s/.test(key)) throw new Error("Name an actor URL, a domain or an address to block.");
  await db
    .insertInto("reply_blocks")
    .values({ value: key, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column("value").doNothing())
    .execute();
  const waiting = await db
    .selectFrom("replies")
    .select(["id", "author_url", "author_address", "source_url"])
    .where("status", "in", ["unconfirmed", "pending"])
    .execute();
  const held = waiting
    .filter((reply) =>
      senderKeys({
        actorUrl: reply.author_url ?? undefined,
        domain: hostOf(reply.source_url ?? undefined),
        address: reply.author_address ?? undefined,
      }).includes(key),
    )
    .map((reply) => reply.id);
  if (held.length > 0) await db.updateTable("replies").set({ status: "blocked" }).where("id", "in", held).execute();
  return { value: key, held: held.length };
}

export async function listBlocks(db: Db) {
  return db.selectFrom("reply_blocks").select(["value", "created_at", "dropped"]).orderBy("value").execute();
}
