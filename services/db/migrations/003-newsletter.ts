import { sql } from "kysely";
import { createDueIndex, oneOf, type Step } from "./schema.ts";

/** Subscribers of the single opt-in era were told they would get updates, so they stay confirmed. */
export const newsletter: Step = async (db, schema) => {
  const subscribers = db.schema.alterTable("subscribers");
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await subscribers
    .addColumn("status", "text", (column) =>
      column
        .notNull()
        .defaultTo(sql.lit("confirmed"))
        .check(oneOf("status", ["pending", "confirmed", "unsubscribed", "bounced"])),
    )
    .execute();
  for (const name of ["client_ip", "confirmed_at", "unsubscribed_at", "confirmation_sent_at"]) {
    await subscribers.addColumn(name, "text").execute();
  }
  await db
    .updateTable("subscribers")
    .set({ confirmed_at: sql.ref("created_at") })
    .execute();

  await db.schema
    .alterTable("messages")
    .addColumn("kind", "text", (column) =>
      column
        .notNull()
        .defaultTo(sql.lit("contact"))
        .check(oneOf("kind", ["contact", "confirmation"])),
    )
    .execute();

  await schema
    .createTable("newsletter_sends")
    .addColumn("slug", "text", (column) => column.notNull())
    .addColumn("subject", "text", (column) => column.notNull())
    .addColumn("body_html", "text", (column) => column.notNull())
    .addColumn("body_text", "text", (column) => column.notNull())
    .addColumn("issue_url", "text", (column) => column.notNull())
    .addColumn("site_name", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();

  await schema
    .createTable("newsletter_deliveries")
    .addColumn("send_id", "integer", (column) => column.notNull().references("newsletter_sends.id").onDelete("cascade"))
    .addColumn("subscriber_id", "integer", (column) =>
      column.notNull().references("subscribers.id").onDelete("cascade"),
    )
    .addColumn("message_id", "text", (column) => column.notNull().unique())
    .addColumn("status", "text", (column) =>
      column
        .notNull()
        .defaultTo(sql.lit("pending"))
        .check(oneOf("status", ["pending", "sent", "bounced", "skipped"])),
    )
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("next_attempt_at", schema.epochMs, (column) => column.notNull())
    .addColumn("claim_token", "text")
    .addColumn("last_error", "text")
    .addColumn("sent_at", "text")
    .addUniqueConstraint("newsletter_deliveries_send_id_subscriber_id_key", ["send_id", "subscriber_id"])
    .execute();
  await createDueIndex(db, "newsletter_deliveries");
  await db.schema
    .createIndex("newsletter_deliveries_subscriber")
    .on("newsletter_deliveries")
    .column("subscriber_id")
    .execute();

  await schema
    .createTable("newsletter_pacing", { withId: false })
    .addColumn("id", "integer", (column) => column.primaryKey().check(sql`id = 1`))
    .addColumn("next_slot_at", schema.epochMs, (column) => column.notNull())
    .execute();
  await db.insertInto("newsletter_pacing").values({ id: 1, next_slot_at: 0 }).execute();
};
