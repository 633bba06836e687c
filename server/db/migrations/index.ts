/**
 * The schema's history for Kysely's Migrator, in name order: each step moves the database one
 * version on, written once with the schema builder for both engines. Never edit a step that
 * shipped; add one. server/db/database.ts runs them.
 *
 * Both engines store the same values: instants as ISO 8601 text (what the data functions compare
 * and show), schedules as epoch milliseconds in 64-bit integers, ids as 32-bit integers.
 */
import type { Migration } from "kysely";
import { outbox } from "./001-outbox.ts";
import { deadLetters } from "./002-dead-letters.ts";
import { newsletter } from "./003-newsletter.ts";
import { rateLimit } from "./004-rate-limit.ts";
import { sendPause } from "./005-send-pause.ts";
import { type Engine, type Step, schemaOf } from "./schema.ts";

const STEPS: Record<string, Step> = {
  "001-outbox": outbox,
  "002-dead-letters": deadLetters,
  "003-newsletter": newsletter,
  "004-rate-limit": rateLimit,
  "005-send-pause": sendPause,
};

/** The steps' names in the order they run. */
export const STEP_NAMES = Object.keys(STEPS).sort();

/** The steps as Kysely's Migrator takes them, for one engine. */
export function migrationsFor(engine: Engine): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(STEPS).map(([name, step]) => [name, { up: (db) => step(db, schemaOf(db, engine)) }]),
  );
}
