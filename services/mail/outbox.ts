// A refusal of our sender makes no dead letters: every message would meet the same answer, so they wait and retry.
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import { normalizeContact } from "../../rules/forms.ts";
import type { Db, MessageKind, MessagesTable } from "../db/database.ts";
import { createMailQueue, DEFAULT_QUEUE_TIMING, errorText, type QueueTiming, refusalOf } from "./queue.ts";
import type { Mailer } from "./transport.ts";

export type OutboxOptions = QueueTiming & { retentionMs: number; messageIdDomain: string };

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  ...DEFAULT_QUEUE_TIMING,
  retentionMs: 90 * 24 * 60 * 60 * 1000,
  messageIdDomain: "localhost",
  log: (message, error) => console.error(`[outbox] ${message}`, error ?? ""),
};

export type NewMessage = { kind?: MessageKind; email: string; subject: string; body: string };

/** `db` may be a transaction, so a subscriber and their confirmation are committed together; `nudge()` after commit. */
type InsertOptions = { messageIdDomain: string; now: number };

export async function insertMessage(db: Db, message: NewMessage, { messageIdDomain, now }: InsertOptions) {
  const messageId = `<${randomUUID()}@${messageIdDomain}>`;
  const { id } = await db
    .insertInto("messages")
    .values({
      ...message,
      message_id: messageId,
      created_at: new Date(now).toISOString(),
      status: "pending",
      next_attempt_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, messageId };
}

export type Outbox = ReturnType<typeof createOutbox>;

export function messageIdDomainOf(address: string): string {
  const domain = address.slice(address.lastIndexOf("@") + 1).replace(/[^A-Za-z0-9.-]/g, "");
  return domain || "localhost";
}

export function createOutbox(db: Db, mailer: Mailer, options: Partial<OutboxOptions> = {}) {
  const settings: OutboxOptions = { ...DEFAULT_OUTBOX_OPTIONS, ...options };
  const { now, log } = settings;

  /** Logged once, not per message. */
  let senderRefused = false;

  const queue = createMailQueue<Selectable<MessagesTable>>(
    db,
    {
      table: "messages",
      noun: "message",
      batch: 1,
      async deliver(row) {
        try {
          const recipient = row.kind === "confirmation" ? { to: row.email } : { replyTo: row.email };
          await mailer.deliver({
            messageId: row.message_id,
            date: new Date(row.created_at),
            ...recipient,
            subject: row.subject,
            text: row.body,
          });
        } catch (error) {
          const refusal = refusalOf(error);
          if (refusal === "sender") {
            if (!senderRefused) {
              log(
                `the SMTP server refuses our sender (MAIL_FROM or the SMTP account): messages wait and are retried until it accepts: ${errorText(error)}`,
              );
            }
            senderRefused = true;
            return { retry: error, quiet: true };
          }
          if (refusal) {
            log(`message ${row.id} refused by the SMTP server; marked failed, not retried: ${errorText(error)}`);
            return { final: "failed", error };
          }
          return { retry: error };
        }
        if (senderRefused) log("the SMTP server accepts our sender again: waiting messages are going out");
        senderRefused = false;
        return { sent: true };
      },
      afterRound: () => deleteExpired(),
    },
    settings,
  );

  async function deleteExpired() {
    const cutoff = new Date(now() - settings.retentionMs).toISOString();
    const deleted = await db
      .deleteFrom("messages")
      .where("status", "=", "sent")
      .where("sent_at", "<", cutoff)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  return Object.assign(queue, {
    async enqueue(message: NewMessage) {
      const inserted = await insertMessage(db, normalizeContact(message), { ...settings, now: now() });
      queue.nudge();
      return inserted;
    },
    deleteExpired,
  });
}
