import type { Db, MessageStatus } from "../db/database.ts";

export function listMessages(db: Db, status?: MessageStatus) {
  let query = db
    .selectFrom("messages")
    .select(["id", "status", "email", "subject", "created_at", "attempts", "last_error"])
    .orderBy("id");
  if (status) query = query.where("status", "=", status);
  return query.execute();
}

export async function retryFailed(db: Db, which: { ids: number[] } | "all-failed", now = Date.now()) {
  let query = db
    .updateTable("messages")
    .set({ status: "pending", next_attempt_at: now, claim_token: null })
    .where("status", "=", "failed");
  if (which !== "all-failed") {
    if (which.ids.length === 0) return [];
    query = query.where("id", "in", which.ids);
  }
  const rows = await query.returning("id").execute();
  return rows.map((row) => row.id);
}
