/**
 * What a migration step is written with: the schema builder plus the few places where SQLite and
 * PostgreSQL truly differ in a table definition.
 */
import { type CreateTableBuilder, type Kysely, sql } from "kysely";

export type Engine = "sqlite" | "postgres";

/** Where SQLite and PostgreSQL truly differ in a table definition; every step is written on it. */
export type Schema = {
  engine: Engine;
  /** Epoch milliseconds: PostgreSQL's integer has 32 bits; SQLite's STRICT tables know only INTEGER (64 bits). */
  epochMs: "integer" | "bigint";
  /** A new table, with an `id` the database numbers itself unless `withId` is false. */
  createTable(name: string, options?: { withId: boolean }): CreateTableBuilder<string, never>;
};

// Migrations work on tables that change under them: they cannot be typed with today's tables.
// biome-ignore lint/suspicious/noExplicitAny: the Migrator's own signature
export type AnyDb = Kysely<any>;

export type Step = (db: AnyDb, schema: Schema) => Promise<void>;

export function schemaOf(db: AnyDb, engine: Engine): Schema {
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

/** `status in ('a', 'b')`, for a CHECK constraint. */
export const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

/** The index a mail worker's claim reads: the pending rows in the order they fall due. */
export const createDueIndex = (db: AnyDb, table: string) =>
  db.schema
    .createIndex(`${table}_due`)
    .on(table)
    .columns(["next_attempt_at", "id"])
    .where(sql.ref("status"), "=", "pending")
    .execute();
