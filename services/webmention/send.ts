// Each essay tells the pages it links to, once per content: a row per (essay, page) holds the hash of
// the essay it was queued for, so restarts and several instances send once, and an edit sends again.
import { createHash } from "node:crypto";
import type { Db } from "../db/database.ts";
import { type Claimed, type LoopOptions, retryAt } from "./claims.ts";
import { fetchOutside, isHtml, isTransientStatus, Unreachable } from "./fetch.ts";
import { endpointOf } from "./page.ts";

/** One essay of a build: its page's address, the links of its body as written, and that body. */
export type LinkingPage = { url: string; links: string[]; html: string };

/** An endpoint's answer is a few words at most; more is not read. */
const ANSWER_LIMIT_BYTES = 64 * 1024;

/** The pages of other sites a page links to, each once, without fragments. */
export function outsideLinks(page: LinkingPage, siteUrl: string): string[] {
  const own = new URL(siteUrl).origin;
  const found = new Set<string>();
  for (const link of page.links) {
    const url = URL.parse(link, page.url);
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin === own) continue;
    url.hash = "";
    found.add(url.href);
  }
  return [...found];
}

export const contentHashOf = (page: LinkingPage) => createHash("sha256").update(page.html).digest("hex");

/**
 * Queues what a page's content has not been sent for: its new links, and on an edit every link
 * it had or has, so that a page it no longer links to can see so. Returns how many were queued.
 */
export async function queueSends(db: Db, page: LinkingPage, siteUrl: string, now = Date.now()): Promise<number> {
  const hash = contentHashOf(page);
  const targets = outsideLinks(page, siteUrl);
  const known = await db
    .selectFrom("webmention_sends")
    .select(["id", "target", "content_hash"])
    .where("source", "=", page.url)
    .execute();
  const queued = {
    status: "queued",
    attempts: 0,
    next_attempt_at: now,
    reason: null,
    updated_at: new Date(now).toISOString(),
  } as const;
  let count = 0;
  for (const row of known) {
    if (row.content_hash === hash) continue;
    // Claimed by its old hash: of two instances, one queues it.
    const changed = await db
      .updateTable("webmention_sends")
      .set({ ...queued, content_hash: hash, claimed_until: null, claim_token: null })
      .where("id", "=", row.id)
      .where("content_hash", "=", row.content_hash)
      .executeTakeFirst();
    count += Number(changed.numUpdatedRows);
  }
  const seen = new Set(known.map((row) => row.target));
  const fresh = targets.filter((target) => !seen.has(target));
  if (fresh.length > 0) {
    const inserted = await db
      .insertInto("webmention_sends")
      .values(fresh.map((target) => ({ source: page.url, target, content_hash: hash, ...queued })))
      .onConflict((conflict) => conflict.columns(["source", "target"]).doNothing())
      .executeTakeFirst();
    count += Number(inserted.numInsertedOrUpdatedRows ?? 0n);
  }
  return count;
}

/** True when a page's current content has been queued for all its links. */
export async function sendsRecorded(db: Db, page: LinkingPage, siteUrl: string): Promise<boolean> {
  const hash = contentHashOf(page);
  const rows = await db
    .selectFrom("webmention_sends")
    .select(["target", "content_hash"])
    .where("source", "=", page.url)
    .execute();
  const current = new Set(rows.filter((row) => row.content_hash === hash).map((row) => row.target));
  return (
    rows.every((row) => row.content_hash === hash) && outsideLinks(page, siteUrl).every((target) => current.has(target))
  );
}

export type SendDeps = { db: Db; allowLoopback: boolean; loop: LoopOptions };

/** Finds the target's endpoint (W3C discovery) and posts to it; a target without one is not asked again. */
export async function sendWebmention(deps: SendDeps, row: Claimed<"webmention_sends">): Promise<void> {
  const finish = async (values: {
    status?: "sent" | "no-endpoint" | "failed";
    attempts?: number;
    next_attempt_at?: number;
    endpoint?: string;
    reason: string | null;
  }) => {
    await deps.db
      .updateTable("webmention_sends")
      .set({ ...values, claimed_until: null, claim_token: null, updated_at: new Date().toISOString() })
      .where("id", "=", row.id)
      .where("claim_token", "=", row.claim_token)
      .execute();
  };
  const later = (reason: string) => {
    const attempts = row.attempts + 1;
    const next = retryAt(attempts, deps.loop);
    return next === undefined
      ? finish({ status: "failed", attempts, reason: `${reason} (given up after ${attempts} tries)` })
      : finish({ attempts, next_attempt_at: next, reason });
  };
  const failure = (error: unknown, what: string) => {
    if (!(error instanceof Unreachable)) throw error;
    return error.transient
      ? later(`${what}: ${error.message}`)
      : finish({ status: "failed", reason: `${what}: ${error.message}` });
  };

  let page: Awaited<ReturnType<typeof fetchOutside>>;
  try {
    page = await fetchOutside(row.target, { allowLoopback: deps.allowLoopback });
  } catch (error) {
    return failure(error, "the target could not be fetched");
  }
  if (isTransientStatus(page.status)) return later(`the target answers ${page.status}`);
  if (page.status < 200 || page.status > 299)
    return finish({ status: "failed", reason: `the target answers ${page.status}` });
  const endpoint = endpointOf(page.headers.get("link"), isHtml(page) ? page.text : undefined, page.url);
  if (!endpoint) return finish({ status: "no-endpoint", reason: null });

  let answer: Awaited<ReturnType<typeof fetchOutside>>;
  try {
    answer = await fetchOutside(endpoint, {
      allowLoopback: deps.allowLoopback,
      method: "POST",
      body: new URLSearchParams({ source: row.source, target: row.target }),
      maxBytes: ANSWER_LIMIT_BYTES,
    });
  } catch (error) {
    return failure(error, `the endpoint ${endpoint} could not be reached`);
  }
  if (answer.status >= 200 && answer.status <= 299) return finish({ status: "sent", endpoint, reason: null });
  if (isTransientStatus(answer.status)) return later(`the endpoint ${endpoint} answers ${answer.status}`);
  return finish({ status: "failed", endpoint, reason: `the endpoint ${endpoint} answers ${answer.status}` });
}
