// Fedify's stores for SQLite and PostgreSQL exist in the registry only for a Fedify release that does not
// (docs/decisions/fedify-stores-over-kysely.md): one store over our own database serves both engines.
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { sql } from "kysely";
import type { Db } from "../db/database.ts";

type Duration = NonNullable<KvStoreSetOptions["ttl"]>;

export const millisecondsOf = (duration: Duration | undefined) =>
  duration ? Math.max(0, duration.total({ unit: "millisecond" })) : 0;

const keyText = (key: KvKey) => JSON.stringify(key);

/** Values are JSON: Fedify stores only plain data (keys as JWK, cached documents, counters). */
export function createKvStore(db: Db, now: () => number = Date.now): KvStore {
  const live = () => sql<boolean>`(expires_at IS NULL OR expires_at > ${now()})`;
  const expiresAt = (options?: KvStoreSetOptions) => (options?.ttl ? now() + millisecondsOf(options.ttl) : null);

  return {
    async get<T>(key: KvKey) {
      const row = await db
        .selectFrom("federation_kv")
        .select("value")
        .where("key", "=", keyText(key))
        .where(live())
        .executeTakeFirst();
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    async set(key, value, options) {
      const row = { key: keyText(key), value: JSON.stringify(value), expires_at: expiresAt(options) };
      await db
        .insertInto("federation_kv")
        .values(row)
        .onConflict((conflict) => conflict.column("key").doUpdateSet({ value: row.value, expires_at: row.expires_at }))
        .execute();
    },
    async delete(key) {
      await db.deleteFrom("federation_kv").where("key", "=", keyText(key)).execute();
    },
    async cas(key, expectedValue, newValue, options) {
      const text = keyText(key);
      const row = { key: text, value: JSON.stringify(newValue), expires_at: expiresAt(options) };
      if (expectedValue === undefined) {
        // An expired row counts as absent: it is replaced, a live one is kept.
        await db.deleteFrom("federation_kv").where("key", "=", text).where(sql<boolean>`NOT ${live()}`).execute();
        const inserted = await db
          .insertInto("federation_kv")
          .values(row)
          .onConflict((conflict) => conflict.column("key").doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
      }
      const updated = await db
        .updateTable("federation_kv")
        .set({ value: row.value, expires_at: row.expires_at })
        .where("key", "=", text)
        .where("value", "=", JSON.stringify(expectedValue))
        .where(live())
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      let query = db.selectFrom("federation_kv").select(["key", "value"]).where(live());
      if (prefix) {
        const exact = keyText(prefix);
        // `["a","b"` followed by `,`: the keys below the prefix, without LIKE's wildcards to escape.
        const below = `${exact.slice(0, -1)},`;
        query = query.where((row) =>
          row.or([row("key", "=", exact), row(sql`substr(key, 1, ${below.length})`, "=", below)]),
        );
      }
      for (const row of await query.orderBy("key").execute()) {
        yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) };
      }
    },
  };
}
