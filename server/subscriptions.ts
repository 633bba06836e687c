/**
 * Newsletter subscribers (SU8, API1). An email is stored once without regard to case: the UNIQUE
 * index on `email_lower` decides, so two requests racing for one email, even from two processes,
 * end with exactly one row and exactly one 'created'.
 */
import { emailKey, normalizeEmail } from "../rules/forms.ts";
import type { Db } from "./db.ts";

export type SubscribeOutcome = "created" | "exists";

/** Stores a validated email; 'exists' when it (in any letter case) is already subscribed. */
export async function subscribe(db: Db, email: string, now: Date = new Date()): Promise<SubscribeOutcome> {
  const result = await db
    .insertInto("subscribers")
    .values({ email: normalizeEmail(email), email_lower: emailKey(email), created_at: now.toISOString() })
    .onConflict((conflict) => conflict.column("email_lower").doNothing())
    .executeTakeFirst();
  return result.numInsertedOrUpdatedRows === 1n ? "created" : "exists";
}
