import type { Step } from "./schema.ts";

/**
 * A newsletter send can be paused (the SMTP server refused our sender, or most recent deliveries
 * failed for good): its deliveries wait, untouched, until `npm run newsletter -- resume`.
 */
export const sendPause: Step = async (db) => {
  const sends = db.schema.alterTable("newsletter_sends");
  await sends.addColumn("paused_at", "text").execute();
  await sends.addColumn("pause_reason", "text").execute();
};
