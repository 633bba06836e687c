// Every id is kept, because mailed confirm and unsubscribe links name subscribers and replies by id. Rows already there
// are left alone, so a second copy adds only what is missing; rate-limit hits expire in minutes and are not copied.
import { sql } from "kysely";
import { KEY_PAIRS } from "../federation/site-actor.ts";
import type { PostgresDatabase, SqliteDatabase, Tables } from "./database.ts";

/** Dependency order: sends and subscribers before the deliveries that name them, replies before webmentions. */
const COPIED_TABLES = [
  "subscribers",
  "messages",
  "newsletter_sends",
  "newsletter_deliveries",
  "mail_reports",
  "fediverse_followers",
  "replies",
  "reply_blocks",
  "webmentions",
  "webmention_sends",
] as const;
type CopiedTable = (typeof COPIED_TABLES)[number];

/** A target row with the same id but another identity is a conflict. */
const IDENTITY: Record<CopiedTable, string> = {
  subscribers: "email_lower",
  messages: "message_id",
  newsletter_sends: "slug",
  newsletter_deliveries: "message_id",
  mail_reports: "key",
  fediverse_followers: "actor_url",
  replies: "received_at",
  reply_blocks: "value",
  webmentions: "source",
  webmention_sends: "target",
};

/** The actor's key pairs: new ones would make followers' servers doubt the site's signatures. Fedify's caches are not copied. */
const SITE_KEYS = JSON.stringify(KEY_PAIRS);

/** Far below PostgreSQL's 65,535 parameters for the widest table. */
const BATCH = 500;

type TableCopy = { table: CopiedTable; source: number; copied: number; alreadyThere: number };

export async function copyToPostgres(from: SqliteDatabase, to: PostgresDatabase): Promise<TableCopy[]> {
  return to.db.transaction().execute(async (trx) => {
    const report: TableCopy[] = [];
    for (const table of COPIED_TABLES) {
      const rows = (await from.db.selectFrom(table).selectAll().orderBy("id").execute()) as Record<string, unknown>[];
      let copied = 0;
      for (let start = 0; start < rows.length; start += BATCH) {
        const batch = rows.slice(start, start + BATCH) as never[];
        const result = await trx
          .insertInto(table)
          .values(batch)
          .onConflict((conflict) => conflict.doNothing())
          .executeTakeFirst();
        copied += Number(result.numInsertedOrUpdatedRows ?? 0n);
      }
      await verify(trx, table, rows);
      await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), GREATEST((SELECT max(id) FROM ${sql.table(table)}), 1))`.execute(
        trx,
      );
      report.push({ table, source: rows.length, copied, alreadyThere: rows.length - copied });
    }
    const keys = await from.db.selectFrom("federation_kv").selectAll().where("key", "=", SITE_KEYS).execute();
    if (keys.length > 0) {
      await trx
        .insertInto("federation_kv")
        .values(keys)
        .onConflict((conflict) => conflict.column("key").doNothing())
        .execute();
    }
    const pacing = await from.db.selectFrom("newsletter_pacing").select("next_slot_at").executeTakeFirst();
    if (pacing) {
      await trx
        .updateTable("newsletter_pacing")
        .set({
          next_slot_at: sql<number>`CASE WHEN next_slot_at > ${pacing.next_slot_at} THEN next_slot_at ELSE ${pacing.next_slot_at} END`,
        })
        .where("id", "=", 1)
        .execute();
    }
    return report;
  });
}

async function verify(trx: PostgresDatabase["db"], table: CopiedTable, rows: readonly Record<string, unknown>[]) {
  const identity = IDENTITY[table] as keyof Tables[CopiedTable] & string;
  const present = (await trx
    .selectFrom(table)
    .select(["id", sql.ref(identity).as("identity")])
    .execute()) as { id: number; identity: unknown }[];
  const found = new Map(present.map((row) => [row.id, row.identity]));
  const problems = rows.filter((row) => found.get(row.id as number) !== row[identity]);
  if (problems.length === 0) return;
  const examples = problems
    .slice(0, 3)
    .map((row) =>
      found.has(row.id as number)
        ? `id ${row.id}: ${String(row[identity])} here, ${String(found.get(row.id as number))} there`
        : `id ${row.id} missing`,
    );
  throw new Error(
    `${table}: ${problems.length} of ${rows.length} rows differ in the PostgreSQL database (${examples.join("; ")}). Nothing was copied: copy into an empty database, or into the one an earlier copy filled.`,
  );
}
