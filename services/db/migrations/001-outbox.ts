import { sql } from "kysely";
import { createDueIndex, oneOf, type Schema, type Step } from "./schema.ts";

/** Step 002 rebuilds this table on SQLite, which cannot change a CHECK constraint in place. */
export const createMessagesTable = (schema: Schema, name: string, statuses: readonly string[]) =>
  schema
    .createTable(name)
    .addColumn("message_id", "text", (column) => column.notNull().unique())
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("subject", "text", (column) => column.notNull())
    .addColumn("body", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull().defaultTo(sql.lit("pending")))
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("next_attempt_at", schema.epochMs, (column) => column.notNull())
    .addColumn("claim_token", "text")
    .addColumn("last_error", "text")
    .addColumn("sent_at", "text")
    .addCheckConstraint("messages_status_check", oneOf("status", statuses))
    .execute();

export const outbox: Step = async (db, schema) => {
  await schema
    .createTable("subscribers")
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("email_lower", "text", (column) => column.notNull().unique())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await createMessagesTable(schema, "messages", ["pending", "sent"]);
  await createDueIndex(db, "messages");
};
