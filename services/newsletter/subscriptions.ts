// The UNIQUE index on `email_lower` and conditional UPDATEs make racing requests, even from two processes,
// end with one row and one confirmation.
import type { Selectable } from "kysely";
import { emailKey, normalizeEmail } from "../../rules/forms.ts";
import type { Db, SubscribersTable } from "../db/database.ts";
import type { IssueToSend } from "./issue.ts";
import { confirmTokenHolds, subscriberIdOf, unsubscribeTokenHolds } from "./tokens.ts";
import { queueWelcome } from "./welcome.ts";

export type Subscriber = Selectable<SubscribersTable>;

export const CONFIRMATION_RESEND_MS = 10 * 60 * 1000;

export type SubscribeOutcome =
  | { outcome: "created" | "resend"; subscriber: Subscriber }
  | { outcome: "pending" | "exists" };

export async function subscribe(
  db: Db,
  email: string,
  { ip, now = new Date() }: { ip?: string; now?: Date } = {},
): Promise<SubscribeOutcome> {
  const time = now.toISOString();
  const key = emailKey(email);
  const signUp = {
    email: normalizeEmail(email),
    status: "pending",
    created_at: time,
    client_ip: ip ?? null,
    confirmation_sent_at: time,
  } as const;
  const inserted = await db
    .insertInto("subscribers")
    .values({ ...signUp, email_lower: key })
    .onConflict((conflict) => conflict.column("email_lower").doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { outcome: "created", subscriber: inserted };

  const returning = await db
    .updateTable("subscribers")
    .set({ ...signUp, confirmed_at: null })
    .where("email_lower", "=", key)
    .where("status", "in", ["unsubscribed", "bounced"])
    .returningAll()
    .executeTakeFirst();
  if (returning) return { outcome: "created", subscriber: returning };

  const resent = await db
    .updateTable("subscribers")
    .set({ confirmation_sent_at: time })
    .where("email_lower", "=", key)
    .where("status", "=", "pending")
    .where((eb) =>
      eb.or([
        eb("confirmation_sent_at", "is", null),
        eb("confirmation_sent_at", "<=", new Date(now.getTime() - CONFIRMATION_RESEND_MS).toISOString()),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  if (resent) return { outcome: "resend", subscriber: resent };

  const current = await db.selectFrom("subscribers").select("status").where("email_lower", "=", key).executeTakeFirst();
  return { outcome: current?.status === "pending" ? "pending" : "exists" };
}

/** `confirmed`: this very sign-up was already confirmed, so the page may say so. */
export type ConfirmLinkState = { state: "valid"; subscriber: Subscriber } | { state: "confirmed" | "invalid" };

async function subscriberNamedBy(db: Db, token: string) {
  const id = subscriberIdOf(token);
  if (id === undefined) return undefined;
  return db.selectFrom("subscribers").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function checkConfirmToken(
  db: Db,
  secret: string,
  token: string,
  now = Date.now(),
): Promise<ConfirmLinkState> {
  const subscriber = await subscriberNamedBy(db, token);
  if (!subscriber || !confirmTokenHolds(secret, token, subscriber, now)) return { state: "invalid" };
  if (subscriber.status === "pending") return { state: "valid", subscriber };
  return { state: subscriber.status === "confirmed" ? "confirmed" : "invalid" };
}

/** With `welcome`, the welcome is queued in the same transaction: one confirmation, one welcome. */
export async function confirmSubscription(
  db: Db,
  secret: string,
  token: string,
  now = Date.now(),
  welcome?: { mail: IssueToSend; messageIdDomain: string },
) {
  const link = await checkConfirmToken(db, secret, token, now);
  if (link.state !== "valid") return "invalid";
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("subscribers")
      .set({ status: "confirmed", confirmed_at: new Date(now).toISOString() })
      .where("id", "=", link.subscriber.id)
      .where("status", "=", "pending")
      .where("created_at", "=", link.subscriber.created_at)
      .executeTakeFirst();
    if (updated.numUpdatedRows !== 1n) return "invalid";
    if (welcome) await queueWelcome(trx, link.subscriber.id, welcome.mail, { ...welcome, now });
    return "confirmed";
  });
}

export async function subscriberOfUnsubscribeToken(db: Db, secret: string, token: string) {
  const subscriber = await subscriberNamedBy(db, token);
  return subscriber && unsubscribeTokenHolds(secret, token, subscriber) ? subscriber : undefined;
}

/** A bounced address stays bounced. */
export async function unsubscribe(db: Db, secret: string, token: string, now = Date.now()) {
  const subscriber = await subscriberOfUnsubscribeToken(db, secret, token);
  if (!subscriber) return "invalid";
  await db
    .updateTable("subscribers")
    .set({ status: "unsubscribed", unsubscribed_at: new Date(now).toISOString() })
    .where("id", "=", subscriber.id)
    .where("status", "in", ["pending", "confirmed"])
    .execute();
  return "unsubscribed";
}
