import { sql } from "kysely";
import { createMessagesTable } from "./001-outbox.ts";
import { createDueIndex, oneOf, type Step } from "./schema.ts";

export const deadLetters: Step = async (db, schema) => {
  const statuses = ["pending", "sent", "failed"];
  if (schema.engine === "postgres") {
    await db.schema.alterTable("messages").dropConstraint("messages_status_check").execute();
    await db.schema
      .alterTable("messages")
      .addCheckConstraint("messages_status_check", oneOf("status", statuses))
      .execute();
    return;
  }
  // SQLite cannot alter a CHECK constraint, so the table is rebuilt with 'failed'.
  await createMessagesTable(schema, "messages_new", statuses);
  await sql`INSERT INTO messages_new SELECT * FROM messages`.execute(db);
  await db.schema.dropTable("messages").execute();
  await db.schema.alterTable("messages_new").renameTo("messages").execute();
  await createDueIndex(db, "messages");
};
