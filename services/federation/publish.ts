// Each item a build publishes reaches followers once, after its page is live (the newsletter's rule):
// a row per item, claimed by insert or by its old hash, so restarts and several instances send it once.
import { createHash } from "node:crypto";
import type { Db } from "../db/database.ts";

/** One essay, book note or issue, as followers' servers show it. */
export type Publication = {
  path: string;
  /** Article for essays and issues; Note for book notes, which Mastodon shows whole. */
  type: "Article" | "Note";
  name: string;
  /** The body, links made absolute. */
  html: string;
};

export type Change = { kind: "create" | "update" | "delete"; id: number; publication: Publication };

export const hashOf = (publication: Publication) =>
  createHash("sha256").update(JSON.stringify(publication)).digest("hex");

export type PublishDeps = {
  isLive(path: string): Promise<boolean>;
  hasFollowers(): Promise<boolean>;
  send(change: Change): Promise<void>;
};

/**
 * Compares a build's items with what was sent. With no follower yet, everything is recorded unsent:
 * a new follower gets what comes next, not the back catalogue. Returns what was sent.
 */
export async function publishChanges(
  db: Db,
  items: Publication[],
  deps: PublishDeps,
): Promise<{ changes: Change[]; waiting: number }> {
  const now = () => new Date().toISOString();
  const sent = await db.selectFrom("fediverse_posts").selectAll().execute();
  const byPath = new Map(sent.map((row) => [row.path, row]));
  const quiet = !(await deps.hasFollowers());
  const changes: Change[] = [];
  let waiting = 0;
  for (const publication of items) {
    const hash = hashOf(publication);
    const row = byPath.get(publication.path);
    if (row?.state === "published" && row.content_hash === hash) continue;
    if (!quiet && !(await deps.isLive(publication.path))) {
      waiting++;
      continue;
    }
    const values = {
      content_hash: hash,
      object: JSON.stringify(publication),
      state: "published" as const,
      updated_at: now(),
    };
    let claimed: number | undefined;
    if (!row) {
      const inserted = await db
        .insertInto("fediverse_posts")
        .values({ path: publication.path, ...values })
        .onConflict((conflict) => conflict.column("path").doNothing())
        .returning("id")
        .executeTakeFirst();
      claimed = inserted?.id;
    } else {
      const updated = await db
        .updateTable("fediverse_posts")
        .set(values)
        .where("id", "=", row.id)
        .where("content_hash", "=", row.content_hash)
        .where("state", "=", row.state)
        .returning("id")
        .executeTakeFirst();
      claimed = updated?.id;
    }
    if (claimed === undefined) continue;
    const kind = row?.state === "published" ? "update" : "create";
    changes.push({ kind, id: claimed, publication });
  }
  const kept = new Set(items.map((item) => item.path));
  for (const row of sent) {
    if (row.state !== "published" || kept.has(row.path)) continue;
    // Removed from the build: its page must be gone before followers are told.
    if (!quiet && (await deps.isLive(row.path))) {
      waiting++;
      continue;
    }
    const deleted = await db
      .updateTable("fediverse_posts")
      .set({ state: "deleted", updated_at: now() })
      .where("id", "=", row.id)
      .where("state", "=", "published")
      .executeTakeFirst();
    if (Number(deleted.numUpdatedRows) === 1) {
      changes.push({ kind: "delete", id: row.id, publication: JSON.parse(row.object) as Publication });
    }
  }
  if (quiet) return { changes: [], waiting: 0 };
  for (const change of changes) await deps.send(change);
  return { changes, waiting };
}

/** Followers' servers show the body away from the site: its own links must name it. */
export const absoluteLinks = (html: string, siteUrl: string) =>
  html.replace(
    /\b(href|src)="(\/(?!\/)[^"]*)"/g,
    (_, attribute: string, path: string) => `${attribute}="${new URL(path, siteUrl).href}"`,
  );
