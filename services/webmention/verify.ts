// A received webmention becomes a reply only once its source is fetched and found linking to the
// target; a source that is gone or no longer links takes back the reply it made.
import type { Db } from "../db/database.ts";
import { holdReply, type ReplyDeps } from "../replies/announce.ts";
import { getReply, ReplyRefused } from "../replies/store.ts";
import { type Claimed, type LoopOptions, retryAt } from "./claims.ts";
import { fetchOutside, isHtml, isTransientStatus, Unreachable } from "./fetch.ts";
import { linksTo, mentionOf } from "./page.ts";

export type VerifyDeps = {
  db: Db;
  replies: Omit<ReplyDeps, "db">;
  allowLoopback: boolean;
  loop: LoopOptions;
};

export async function verifyWebmention(deps: VerifyDeps, row: Claimed<"webmentions">): Promise<void> {
  const { db } = deps;
  const unclaimed = () => ({ claimed_until: null, claim_token: null, updated_at: new Date().toISOString() });
  // A webmention received again while this check ran voided the claim: the next check decides.
  const finish = async (values: {
    status?: "verified" | "refused";
    attempts?: number;
    next_attempt_at?: number;
    reason: string | null;
  }) => {
    await db
      .updateTable("webmentions")
      .set({ ...values, ...unclaimed() })
      .where("id", "=", row.id)
      .where("claim_token", "=", row.claim_token)
      .execute();
  };
  const takeBack = (reason: string) =>
    db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable("webmentions")
        .set({ status: "refused", reason, reply_id: null, ...unclaimed() })
        .where("id", "=", row.id)
        .where("claim_token", "=", row.claim_token)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 1 && row.reply_id !== null) {
        await trx.deleteFrom("replies").where("id", "=", row.reply_id).execute();
      }
    });
  // A source down for a while proves nothing against the reply it made: that stays.
  const later = (reason: string) => {
    const attempts = row.attempts + 1;
    const next = retryAt(attempts, deps.loop);
    return next === undefined
      ? finish({ status: "refused", attempts, reason: `${reason} (given up after ${attempts} tries)` })
      : finish({ attempts, next_attempt_at: next, reason });
  };

  let page: Awaited<ReturnType<typeof fetchOutside>>;
  try {
    page = await fetchOutside(row.source, { allowLoopback: deps.allowLoopback });
  } catch (error) {
    if (!(error instanceof Unreachable)) throw error;
    return error.transient
      ? later(`the source could not be fetched: ${error.message}`)
      : takeBack(`the source ${error.message}`);
  }
  if (isTransientStatus(page.status)) return later(`the source answers ${page.status}`);
  if (page.status < 200 || page.status > 299) return takeBack(`the source answers ${page.status}`);
  if (!isHtml(page)) return takeBack("the source is not an HTML page");
  if (!linksTo(page.text, page.url, row.target)) return takeBack("the source does not link to the target");

  const mention = mentionOf(page.text, page.url);
  const earlier = row.reply_id === null ? undefined : await getReply(db, row.reply_id);
  if (
    earlier &&
    earlier.text === mention.text &&
    earlier.author_name === mention.author.name &&
    earlier.author_url === (mention.author.url ?? null)
  ) {
    return finish({ status: "verified", reason: null });
  }
  let held: { id: number };
  try {
    // Changed words are a new reply: the owner approves what is shown, not what was.
    held = await holdReply(
      { db, ...deps.replies },
      {
        kind: "webmention",
        target: new URL(row.target).pathname,
        author: mention.author,
        text: mention.text,
        sourceUrl: row.source,
        writtenAt: mention.writtenAt ?? new Date(),
      },
    );
  } catch (error) {
    if (!(error instanceof ReplyRefused)) throw error;
    return takeBack(error.message);
  }
  await db.updateTable("webmentions").set({ reply_id: held.id }).where("id", "=", row.id).execute();
  if (earlier) await db.deleteFrom("replies").where("id", "=", earlier.id).execute();
  await finish({ status: "verified", reason: null });
}
