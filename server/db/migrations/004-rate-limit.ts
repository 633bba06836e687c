import type { Step } from "./schema.ts";

/**
 * The rate limit shared by instances: one row per counted submission, kept for one window. Only
 * the PostgreSQL deployment counts here; one SQLite process counts in memory.
 */
export const rateLimit: Step = async (db, schema) => {
  await schema
    .createTable("rate_limit_hits", { withId: false })
    .addColumn("key", "text", (column) => column.notNull())
    .addColumn("at", schema.epochMs, (column) => column.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_hits_key").on("rate_limit_hits").columns(["key", "at"]).execute();
  await db.schema.createIndex("rate_limit_hits_at").on("rate_limit_hits").column("at").execute();
};
