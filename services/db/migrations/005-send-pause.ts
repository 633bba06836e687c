import type { Step } from "./schema.ts";

export const sendPause: Step = async (db) => {
  const sends = db.schema.alterTable("newsletter_sends");
  await sends.addColumn("paused_at", "text").execute();
  await sends.addColumn("pause_reason", "text").execute();
};
