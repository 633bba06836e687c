// Fedify's message queue in our database: a message survives a restart, and of several instances
// sharing PostgreSQL exactly one takes it (a leased claim, as the mail queue's).
import { randomUUID } from "node:crypto";
import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from "@fedify/fedify";
import { sql } from "kysely";
import { type Db, isPostgres } from "../db/database.ts";
import { millisecondsOf } from "./kv.ts";

export type QueueOptions = {
  pollMs: number;
  /** A claim older than this is taken again: its instance died mid-delivery. */
  leaseMs: number;
  /** Messages handled at once: a slow server holds one worker, not the queue. */
  workers: number;
  log: (message: string, error?: unknown) => void;
  now: () => number;
};

const DEFAULTS: QueueOptions = {
  pollMs: 500,
  leaseMs: 5 * 60_000,
  workers: 8,
  log: console.error,
  now: Date.now,
};

type Claimed = { id: number; message: string; claim_token: string };

export function createMessageQueue(db: Db, options: Partial<QueueOptions> = {}): MessageQueue {
  const { pollMs, leaseMs, workers, log, now } = { ...DEFAULTS, ...options };
  // SQLite runs one write at a time, so the UPDATE's subquery needs no row lock there.
  const skipLocked = isPostgres(db) ? sql`FOR UPDATE SKIP LOCKED` : sql``;

  const rowOf = (message: unknown, enqueue?: MessageQueueEnqueueOptions) => ({
    message: JSON.stringify(message),
    ordering_key: enqueue?.orderingKey ?? null,
    deliver_at: now() + millisecondsOf(enqueue?.delay),
  });

  /** The oldest due message, unless one of its ordering key is being handled. */
  async function claim(): Promise<Claimed | undefined> {
    const at = now();
    const token = randomUUID();
    const { rows } = await sql<Claimed>`
      UPDATE federation_queue SET claimed_until = ${at + leaseMs}, claim_token = ${token}
      WHERE id = (
        SELECT id FROM federation_queue AS due
        WHERE due.deliver_at <= ${at} AND (due.claimed_until IS NULL OR due.claimed_until < ${at})
          AND (due.ordering_key IS NULL OR NOT EXISTS (
            SELECT 1 FROM federation_queue AS earlier
            WHERE earlier.ordering_key = due.ordering_key AND earlier.id < due.id))
        ORDER BY due.deliver_at, due.id LIMIT 1 ${skipLocked})
      RETURNING id, message, claim_token`.execute(db);
    return rows[0];
  }

  return {
    async enqueue(message, enqueue) {
      await db.insertInto("federation_queue").values(rowOf(message, enqueue)).execute();
    },
    async enqueueMany(messages, enqueue) {
      if (messages.length === 0) return;
      await db
        .insertInto("federation_queue")
        .values(messages.map((message) => rowOf(message, enqueue)))
        .execute();
    },
    async getDepth() {
      const at = now();
      const row = await db
        .selectFrom("federation_queue")
        .select((count) => [
          count.fn.countAll<number>().as("queued"),
          count.fn.sum<number>(sql`CASE WHEN deliver_at <= ${at} THEN 1 ELSE 0 END`).as("ready"),
        ])
        .where("claimed_until", "is", null)
        .executeTakeFirstOrThrow();
      const queued = Number(row.queued);
      const ready = Number(row.ready ?? 0);
      return { queued, ready, delayed: queued - ready };
    },
    async listen(handler, listenOptions?: MessageQueueListenOptions) {
      const signal = listenOptions?.signal;
      const pause = () =>
        new Promise<void>((done) => {
          const stop = () => {
            clearTimeout(timer);
            done();
          };
          const timer = setTimeout(() => {
            signal?.removeEventListener("abort", stop);
            done();
          }, pollMs);
          signal?.addEventListener("abort", stop, { once: true });
        });
      const worker = async () => {
        while (!signal?.aborted) {
          let claimed: Claimed | undefined;
          try {
            claimed = await claim();
          } catch (error) {
            log("could not read the federation queue", error);
          }
          if (!claimed) {
            await pause();
            continue;
          }
          try {
            await handler(JSON.parse(claimed.message));
            await db.deleteFrom("federation_queue").where("id", "=", claimed.id).execute();
          } catch (error) {
            // Fedify retries a failed delivery itself; a handler that throws gets its message back after a pause.
            log("a federation message failed; it is tried again", error);
            await db
              .updateTable("federation_queue")
              .set({ claimed_until: null, claim_token: null, deliver_at: now() + pollMs * 10 })
              .where("id", "=", claimed.id)
              .where("claim_token", "=", claimed.claim_token)
              .execute()
              .catch((failure: unknown) => log("could not give a federation message back", failure));
          }
        }
      };
      await Promise.all(Array.from({ length: workers }, worker));
    },
  };
}
