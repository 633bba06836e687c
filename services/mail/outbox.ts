// A refusal of our sender makes no dead letters: every message would meet the same answer, so they wait and retry.
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import { normalizeContact } from "../../rules/forms.ts";
import type { Db, MessagesTable } from "../db/database.ts";
import {
  createMailQueue,
  DEFAULT_QUEUE_TIMING,
  errorText,
  type MailQueue,
  type QueueTiming,
  refusalOf,
} from "./queue.ts";
import type { Mailer } from "./transport.ts";

export type OutboxOptions = QueueTiming & {
  retentionMs: number;
  messageIdDomain: string;
};

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  ...DEFAULT_QUEUE_TIMING,
  retentionMs: 90 * 24 * 60 * 60 * 1000,
  messageIdDomain: "localhost",
  log: (message, error) => console.error(`[outbox] ${message}`, error ?? ""),
};

export type NewMessage = { email: string; subject: string; body: string };

export type NewConfirmation = { kind: "confirmation"; email: string; subject: string; body: string };

/** `db` may be a transaction, so the subscriber and their mail are committed together; `nudge()` after commit. */
export async function insertConfirmation(
  db: Db,
  mail: NewConfirmation,
  { messageIdDomain, now }: { messageIdDomain: string; now: number },
) {
  await db
    .insertInto("messages")
    .values({
      message_id: `<${randomUUID()}@${messageIdDomain}>`,
      kind: "confirmation",
      email: mail.email,
      subject: mail.subject,
      body: mail.body,
      created_at: new Date(now).toISOString(),
      status: "pending",
      next_attempt_at: now,
    })
    .execute();
}

export type Outbox = MailQueue & {
  enqueue(message: NewMessage): Promise<{ id: number; messageId: string }>;
  deleteExpired(): Promise<number>;
};

export function messageIdDomainOf(address: string): string {
  const domain = address.slice(address.lastIndexOf("@") + 1).replace(/[^A-Za-z0-9.-]/g, "");
  return domain || "localhost";
}

export function createOutbox(db: Db, mailer: Mailer, options: Partial<OutboxOptions> = {}): Outbox {
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
      const { email, subject, body } = normalizeContact(message);
      const messageId = `<${randomUUID()}@${settings.messageIdDomain}>`;
      const time = now();
      const inserted = await db
        .insertInto("messages")
        .values({
          message_id: messageId,
          email,
          subject,
          body,
          created_at: new Date(time).toISOString(),
          status: "pending",
          next_attempt_at: time,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      queue.nudge();
      return { id: inserted.id, messageId };
    },
    deleteExpired,
  });
}
