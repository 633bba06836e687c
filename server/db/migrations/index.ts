/**
 * The schema's history, for both engines (DESIGN §9.4): entry n moves a database from version n to
 * n + 1, with one SQL text per engine that ends in the same tables, columns and constraints.
 * server/db.ts applies them (SQLite: PRAGMA user_version; PostgreSQL: the `schema_version` table,
 * under an advisory lock). Never edit a migration that shipped; add one.
 *
 * Both engines store the same values: instants as ISO 8601 text (what the data functions compare
 * and show), schedules as epoch milliseconds in 64-bit integers, ids as 32-bit integers.
 */
import { outbox } from "./001-outbox.ts";
import { deadLetters } from "./002-dead-letters.ts";
import { newsletter } from "./003-newsletter.ts";
import { rateLimit } from "./004-rate-limit.ts";

export type Migration = { name: string; sqlite: string; postgres: string };

export const MIGRATIONS: readonly Migration[] = [outbox, deadLetters, newsletter, rateLimit];
