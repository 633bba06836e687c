import { type CreateTableBuilder, type Kysely, sql } from "kysely";

export type Engine = "sqlite" | "postgres";

export type Schema = {
  engine: Engine;
  /** PostgreSQL's integer has 32 bits; SQLite's STRICT tables know only INTEGER (64 bits). */
  epochMs: "integer" | "bigint";
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

export const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

export const createDueIndex = (db: AnyDb, table: string) =>
  db.schema
    .createIndex(`${table}_due`)
    .on(table)
    .columns(["next_attempt_at", "id"])
    .where(sql.ref("status"), "=", "pending")
    .execute();
