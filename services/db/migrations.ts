// Never edit a step that shipped; add one.
import { type CreateTableBuilder, type Kysely, type Migration, sql } from "kysely";

export type Engine = "sqlite" | "postgres";

type Schema = {
  engine: Engine;
  /** PostgreSQL's integer has 32 bits; SQLite's STRICT tables know only INTEGER (64 bits). */
  epochMs: "integer" | "bigint";
  createTable(name: string, options?: { withId: boolean }): CreateTableBuilder<string, never>;
};

// Migrations work on tables that change under them: they cannot be typed with today's tables.
// biome-ignore lint/suspicious/noExplicitAny: the Migrator's own signature
type AnyDb = Kysely<any>;

type Step = (db: AnyDb, schema: Schema) => Promise<void>;

function schemaOf(db: AnyDb, engine: Engine): Schema {
  const postgres = engine === "postgres";
  return {
    engine,
    epochMs: postgres ? "bigint" : "integer",
    createTable(name, { withId } = { withId: true }) {
      let table = db.schema.createTable(name);
      // SQLite checks column types only in STRICT tables; its INTEGER PRIMARY KEY numbers rows itself.
      if (!postgres) table = table.modifyEnd(sql`strict`);
      if (!withId) return table;
      return table.addColumn("id", "integer", (column) =>
        postgres ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey(),
      );
    },
  };
}

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

const createDueIndex = (db: AnyDb, table: string) =>
  db.schema
    .createIndex(`${table}_due`)
    .on(table)
    .columns(["next_attempt_at", "id"])
    .where(sql.ref("status"), "=", "pending")
    .execute();

/** Step 002 rebuilds this table on SQLite, which cannot change a CHECK constraint in place. */
const createMessagesTable = (schema: Schema, name: string, statuses: readonly string[]) =>
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

const STEPS: Record<string, Step> = {
  "001-outbox": async (db, schema) => {
    await schema
      .createTable("subscribers")
      .addColumn("email", "text", (column) => column.notNull())
      .addColumn("email_lower", "text", (column) => column.notNull().unique())
      .addColumn("created_at", "text", (column) => column.notNull())
      .execute();
    await createMessagesTable(schema, "messages", ["pending", "sent"]);
    await createDueIndex(db, "messages");
  },
  "002-dead-letters": async (db, schema) => {
    const statuses = ["pending", "sent", "failed"];
    if (schema.engine === "postgres") {
      await db.schema.alterTable("messages").dropConstraint("messages_status_check").execute();
      await db.schema
        .alterTable("messages")
        .addCheckConstraint("messages_status_check", oneOf("status", statuses))
        .execute();
      return;
    }
    await createMessagesTable(schema, "messages_new", statuses);
    await sql`INSERT INTO messages_new SELECT * FROM messages`.execute(db);
    await db.schema.dropTable("messages").execute();
    await db.schema.alterTable("messages_new").renameTo("messages").execute();
    await createDueIndex(db, "messages");
  },
  /** Subscribers of the single opt-in era were told they would get updates, so they stay confirmed. */
  "003-newsletter": async (db, schema) => {
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
      .addColumn("send_id", "integer", (column) =>
        column.notNull().references("newsletter_sends.id").onDelete("cascade"),
      )
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
  },
  "004-rate-limit": async (db, schema) => {
    await schema
      .createTable("rate_limit_hits", { withId: false })
      .addColumn("key", "text", (column) => column.notNull())
      .addColumn("at", schema.epochMs, (column) => column.notNull())
      .execute();
    await db.schema.createIndex("rate_limit_hits_key").on("rate_limit_hits").columns(["key", "at"]).execute();
    await db.schema.createIndex("rate_limit_hits_at").on("rate_limit_hits").column("at").execute();
  },
  "005-send-pause": async (db) => {
    const sends = db.schema.alterTable("newsletter_sends");
    await sends.addColumn("paused_at", "text").execute();
    await sends.addColumn("pause_reason", "text").execute();
  },
  /** A report's key is unique, so a report read twice, by two instances or after a restart, counts once. */
  "006-mail-reports": async (db, schema) => {
    await schema
      .createTable("mail_reports")
      .addColumn("key", "text", (column) => column.notNull().unique())
      .addColumn("kind", "text", (column) =>
        column.notNull().check(oneOf("kind", ["hard", "soft", "delayed", "complaint"])),
      )
      .addColumn("send_id", "integer", (column) =>
        column.notNull().references("newsletter_sends.id").onDelete("cascade"),
      )
      .addColumn("subscriber_id", "integer", (column) =>
        column.notNull().references("subscribers.id").onDelete("cascade"),
      )
      .addColumn("detail", "text", (column) => column.notNull())
      .addColumn("received_at", "text", (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex("mail_reports_subscriber")
      .on("mail_reports")
      .columns(["subscriber_id", "send_id"])
      .execute();
  },
  /** Fedify's key–value store and message queue, and the readers who follow the site from the fediverse. */
  "007-federation": async (db, schema) => {
    await schema
      .createTable("federation_kv", { withId: false })
      .addColumn("key", "text", (column) => column.primaryKey())
      .addColumn("value", "text", (column) => column.notNull())
      .addColumn("expires_at", schema.epochMs)
      .execute();
    await schema
      .createTable("federation_queue")
      .addColumn("message", "text", (column) => column.notNull())
      .addColumn("ordering_key", "text")
      .addColumn("deliver_at", schema.epochMs, (column) => column.notNull())
      .addColumn("claimed_until", schema.epochMs)
      .addColumn("claim_token", "text")
      .execute();
    await db.schema.createIndex("federation_queue_due").on("federation_queue").columns(["deliver_at", "id"]).execute();
    await schema
      .createTable("fediverse_followers")
      .addColumn("actor_url", "text", (column) => column.notNull().unique())
      .addColumn("inbox", "text", (column) => column.notNull())
      .addColumn("shared_inbox", "text")
      .addColumn("followed_at", "text", (column) => column.notNull())
      .execute();
  },
  /** What was sent to followers, so that restarts and other instances send each item once. */
  "008-fediverse-posts": async (_db, schema) => {
    await schema
      .createTable("fediverse_posts")
      .addColumn("path", "text", (column) => column.notNull().unique())
      .addColumn("content_hash", "text", (column) => column.notNull())
      .addColumn("object", "text", (column) => column.notNull())
      .addColumn("state", "text", (column) => column.notNull().check(oneOf("state", ["published", "deleted"])))
      .addColumn("updated_at", "text", (column) => column.notNull())
      .execute();
  },
  /** A block's `dropped` counts the replies refused since, so the owner sees what a block holds back. */
  "009-replies": async (db, schema) => {
    await schema
      .createTable("replies")
      .addColumn("kind", "text", (column) => column.notNull().check(oneOf("kind", ["fediverse", "webmention", "form"])))
      .addColumn("target", "text", (column) => column.notNull())
      .addColumn("author_name", "text", (column) => column.notNull())
      .addColumn("author_url", "text")
      .addColumn("author_address", "text")
      .addColumn("text", "text", (column) => column.notNull())
      .addColumn("html", "text", (column) => column.notNull())
      .addColumn("source_url", "text")
      .addColumn("written_at", "text", (column) => column.notNull())
      .addColumn("received_at", "text", (column) => column.notNull())
      .addColumn("status", "text", (column) =>
        column.notNull().check(oneOf("status", ["unconfirmed", "pending", "approved", "rejected", "blocked"])),
      )
      .execute();
    await db.schema.createIndex("replies_target").on("replies").columns(["target", "status", "written_at"]).execute();
    await schema
      .createTable("reply_blocks")
      .addColumn("value", "text", (column) => column.notNull().unique())
      .addColumn("created_at", "text", (column) => column.notNull())
      .addColumn("dropped", "integer", (column) => column.notNull().defaultTo(0))
      .execute();
  },
  /**
   * Webmentions received, checked later by a worker, and those the site sends; one row per (source, target)
   * each, so a repeated webmention re-queues its check and a restart or a second instance sends once.
   */
  "010-webmentions": async (db, schema) => {
    await schema
      .createTable("webmentions")
      .addColumn("source", "text", (column) => column.notNull())
      .addColumn("target", "text", (column) => column.notNull())
      .addColumn("status", "text", (column) =>
        column.notNull().check(oneOf("status", ["queued", "verified", "refused"])),
      )
      .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("next_attempt_at", schema.epochMs, (column) => column.notNull())
      .addColumn("claimed_until", schema.epochMs)
      .addColumn("claim_token", "text")
      .addColumn("reason", "text")
      .addColumn("reply_id", "integer", (column) => column.references("replies.id").onDelete("set null"))
      .addColumn("received_at", "text", (column) => column.notNull())
      .addColumn("updated_at", "text", (column) => column.notNull())
      .addUniqueConstraint("webmentions_source_target", ["source", "target"])
      .execute();
    await db.schema.createIndex("webmentions_due").on("webmentions").columns(["status", "next_attempt_at"]).execute();
    await schema
      .createTable("webmention_sends")
      .addColumn("source", "text", (column) => column.notNull())
      .addColumn("target", "text", (column) => column.notNull())
      .addColumn("content_hash", "text", (column) => column.notNull())
      .addColumn("status", "text", (column) =>
        column.notNull().check(oneOf("status", ["queued", "sent", "no-endpoint", "failed"])),
      )
      .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("next_attempt_at", schema.epochMs, (column) => column.notNull())
      .addColumn("claimed_until", schema.epochMs)
      .addColumn("claim_token", "text")
      .addColumn("endpoint", "text")
      .addColumn("reason", "text")
      .addColumn("updated_at", "text", (column) => column.notNull())
      .addUniqueConstraint("webmention_sends_source_target", ["source", "target"])
      .execute();
    await db.schema
      .createIndex("webmention_sends_due")
      .on("webmention_sends")
      .columns(["status", "next_attempt_at"])
      .execute();
  },
};

export const STEP_NAMES = Object.keys(STEPS).sort();

export function migrationsFor(engine: Engine): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(STEPS).map(([name, step]) => [name, { up: (db) => step(db, schemaOf(db, engine)) }]),
  );
}
