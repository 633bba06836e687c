// Reports are recorded in the same transaction as their effect and leave the mailbox only after it commits,
// so two readers at once, or a reader that dies midway, still count each report once.
import { ImapFlow } from "imapflow";
import type { Config } from "../config.ts";
import type { Db, MailReportKind } from "../db/database.ts";
import { returnPath } from "../mail/transport.ts";
import { type Report, readReport } from "./reports.ts";
import { returnPathToken, same } from "./tokens.ts";
import { judgeSend } from "./worker.ts";

export const UNREADABLE_FOLDER = "Unreadable";
const BOUNCE_POLL_MS = 5 * 60 * 1000;
const LARGEST_REPORT = 4 * 1024 * 1024;
/** What one fetch may bring into memory at once. */
const FETCH_BYTES = 8 * 1024 * 1024;
const FETCH_MESSAGES = 100;

/** The messages' UIDs in runs of at most FETCH_MESSAGES and FETCH_BYTES. */
function chunksOf(messages: { uid: number; size?: number }[]): number[][] {
  const chunks: number[][] = [];
  let bytes = Infinity;
  for (const { uid, size = 0 } of messages) {
    const last = chunks.at(-1);
    if (!last || last.length >= FETCH_MESSAGES || bytes + size > FETCH_BYTES) {
      chunks.push([uid]);
      bytes = size;
    } else {
      last.push(uid);
      bytes += size;
    }
  }
  return chunks;
}
/** Temporary failures in this many of a subscriber's last five sends mark them bounced. */
const SOFT_BOUNCE_LIMIT = 3;

export class BounceMailboxError extends Error {
  name = "BounceMailboxError";
}

export type ReturnPathSettings = Pick<Config, "secretKey" | "mailFrom">;
type BounceSettings = ReturnPathSettings & { bounceImapUrl: string };

export type BouncePass = {
  counts: Record<MailReportKind | "alreadyCounted" | "unreadable", number>;
  /** Each message of the Unreadable folder: its date, sender and subject. */
  unreadable: string[];
};

export type Delivery = { send_id: number; subscriber_id: number };

export async function deliveryOf(
  db: Db,
  report: Report,
  { secretKey, mailFrom }: ReturnPathSettings,
): Promise<Delivery | string> {
  const deliveries = db.selectFrom("newsletter_deliveries").select(["send_id", "subscriber_id"]);
  const [address] = report.returnPaths;
  if (address !== undefined) {
    const [sendId, subscriberId] = (/^bounces\+(\d{1,15})\.(\d{1,15})\./i.exec(address) ?? []).slice(1).map(Number);
    if (sendId === undefined || subscriberId === undefined)
      return `addressed to a return path we did not sign: ${address}`;
    const signed = returnPath(mailFrom, returnPathToken(secretKey, sendId, subscriberId)).toLowerCase();
    const forged = report.returnPaths.find((each) => !same(signed, each.toLowerCase()));
    if (forged) return `addressed to a return path we did not sign: ${forged}`;
    const found = deliveries.where("send_id", "=", sendId).where("subscriber_id", "=", subscriberId);
    return (await found.executeTakeFirst()) ?? `the mail to ${address} is no longer on record`;
  }
  if (!report.originalMessageId)
    return "it names neither a return path of ours nor the Message-ID of a newsletter mail";
  const found = deliveries.where("message_id", "=", report.originalMessageId);
  return (await found.executeTakeFirst()) ?? `its original ${report.originalMessageId} is no newsletter mail of ours`;
}

/** Whether the report was new: a report already recorded changes nothing. */
export async function applyReport(db: Db, report: Report, delivery: Delivery, now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { key, kind, detail } = report;
    const recorded = await trx
      .insertInto("mail_reports")
      .values({ key, kind, detail: detail.slice(0, 1000), ...delivery, received_at: new Date(now).toISOString() })
      .onConflict((conflict) => conflict.column("key").doNothing())
      .executeTakeFirst();
    if (recorded.numInsertedOrUpdatedRows !== 1n) return false;
    const subscriber = trx.updateTable("subscribers").where("id", "=", delivery.subscriber_id);
    if (kind === "complaint") {
      await subscriber
        .set({ status: "unsubscribed", unsubscribed_at: new Date(now).toISOString() })
        .where("status", "in", ["pending", "confirmed"])
        .execute();
    }
    if (
      kind === "hard" ||
      (kind === "soft" && (await softBouncedSends(trx, delivery.subscriber_id)) >= SOFT_BOUNCE_LIMIT)
    ) {
      await subscriber.set({ status: "bounced" }).where("status", "=", "confirmed").execute();
    }
    if (kind === "hard" || kind === "complaint") await judgeSend(trx, delivery.send_id, now);
    return true;
  });
}

async function softBouncedSends(db: Db, subscriberId: number): Promise<number> {
  const row = await db
    .selectFrom("mail_reports")
    .select((eb) => eb.fn.count<number>("send_id").distinct().as("sends"))
    .where("kind", "=", "soft")
    .where("subscriber_id", "=", subscriberId)
    .where("send_id", "in", (eb) =>
      eb
        .selectFrom("newsletter_deliveries")
        .select("send_id")
        .where("subscriber_id", "=", subscriberId)
        .orderBy("send_id", "desc")
        .limit(5),
    )
    .executeTakeFirstOrThrow();
  return Number(row.sends);
}

/** One pass over the bounce mailbox: each report is applied and deleted, or moved to Unreadable. */
export async function readBounceMailbox(
  db: Db,
  settings: BounceSettings,
  log: (message: string) => void,
  now = Date.now,
): Promise<BouncePass> {
  const url = new URL(settings.bounceImapUrl);
  const secure = url.protocol === "imaps:";
  const auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  const client = new ImapFlow({
    host: url.hostname,
    port: Number(url.port) || (secure ? 993 : 143),
    secure,
    auth,
    logger: false,
  });
  const folder = decodeURIComponent(url.pathname.slice(1)) || "INBOX";
  const counts: BouncePass["counts"] = { hard: 0, soft: 0, delayed: 0, complaint: 0, alreadyCounted: 0, unreadable: 0 };
  // A connection lost later is reported by the command that meets it; unheard, the event would end the process.
  client.on("error", () => undefined);
  await client.connect().catch((error: { responseText?: string; message: string }) => {
    throw new BounceMailboxError(`cannot log in to ${url.host}: ${error.responseText ?? error.message}`);
  });
  try {
    await client.mailboxCreate(UNREADABLE_FOLDER);
    const lock = await client.getMailboxLock(folder);
    try {
      // By UID: another reader may empty the folder between two commands, which a sequence range refuses.
      const uids = (await client.search({ all: true }, { uid: true })) || [];
      const listed = uids.length > 0 ? await client.fetchAll(uids, { size: true }, { uid: true }) : [];
      const moved = listed.filter(({ size }) => (size ?? 0) > LARGEST_REPORT).map(({ uid }) => uid);
      for (const uid of moved)
        log(`report ${uid} moved to ${UNREADABLE_FOLDER}: larger than ${LARGEST_REPORT / 1024 / 1024} MB`);
      // A chunk at a time, one command each way: a round trip per message made 10,000 reports take minutes.
      for (const chunk of chunksOf(listed.filter(({ size }) => (size ?? 0) <= LARGEST_REPORT))) {
        // A message another reader took meanwhile is simply not returned.
        const messages = await client.fetchAll(chunk, { source: true }, { uid: true });
        const done: number[] = [];
        for (const { uid, source } of messages) {
          const report = source ? await readReport(source).catch(() => "not readable as mail") : "empty";
          const delivery = typeof report === "string" ? report : await deliveryOf(db, report, settings);
          if (typeof report === "string" || typeof delivery === "string") {
            log(`report ${uid} moved to ${UNREADABLE_FOLDER}, nobody changed: ${delivery}`);
            moved.push(uid);
            continue;
          }
          const isNew = await applyReport(db, report, delivery, now());
          counts[isNew ? report.kind : "alreadyCounted"]++;
          if (isNew && report.kind === "delayed") {
            log(
              `send ${delivery.send_id} to subscriber ${delivery.subscriber_id} is delayed, not failed: ${report.detail}`,
            );
          }
          done.push(uid);
        }
        if (done.length > 0) await client.messageDelete(done, { uid: true });
      }
      if (moved.length > 0) await client.messageMove(moved, UNREADABLE_FOLDER, { uid: true });
      counts.unreadable = moved.length;
    } finally {
      lock.release();
    }
    return { counts, unreadable: await unreadableMessages(client) };
  } finally {
    await client.logout().catch(() => client.close());
  }
}

async function unreadableMessages(client: ImapFlow): Promise<string[]> {
  const lock = await client.getMailboxLock(UNREADABLE_FOLDER, { readOnly: true });
  try {
    if (!client.mailbox || client.mailbox.exists === 0) return [];
    const messages = await client.fetchAll("1:*", { envelope: true, internalDate: true });
    return messages.map(({ envelope, internalDate }) => {
      const from = envelope?.from?.map((sender) => sender.address).join(", ") || "(no sender)";
      const date = internalDate instanceof Date ? internalDate.toISOString() : String(internalDate ?? "");
      return `${date}  ${from}  ${JSON.stringify(envelope?.subject ?? "")}`;
    });
  } finally {
    lock.release();
  }
}

/** Reads the mailbox now and then every BOUNCE_POLL_MS until stopped; a failed pass is logged and retried. */
export function watchBounceMailbox(db: Db, settings: BounceSettings, log: (message: string, error?: unknown) => void) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const pass = () => {
    running = readBounceMailbox(db, settings, log)
      .catch((error: unknown) => log("reading the bounce mailbox failed", error))
      .finally(() => {
        if (!stopped) timer = setTimeout(pass, BOUNCE_POLL_MS).unref();
      });
  };
  pass();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
