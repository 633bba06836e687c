// Never edit a step that shipped; add one.
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

export const STEP_NAMES = Object.keys(STEPS).sort();

export function migrationsFor(engine: Engine): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(STEPS).map(([name, step]) => [name, { up: (db) => step(db, schemaOf(db, engine)) }]),
  );
}
