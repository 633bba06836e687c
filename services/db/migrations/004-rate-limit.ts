import type { Step } from "./schema.ts";

export const rateLimit: Step = async (db, schema) => {
  await schema
    .createTable("rate_limit_hits", { withId: false })
    .addColumn("key", "text", (column) => column.notNull())
    .addColumn("at", schema.epochMs, (column) => column.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_hits_key").on("rate_limit_hits").columns(["key", "at"]).execute();
  await db.schema.createIndex("rate_limit_hits_at").on("rate_limit_hits").column("at").execute();
};
