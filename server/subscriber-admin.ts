/**
 * The owner's view of the list (`npm run newsletter -- subscribers|export|import|remove`). Never
 * reachable over HTTP: only the command line, run on the machine that holds DATA_DIR, uses it.
 */
import { emailKey, isValidEmail, LIMITS, normalizeEmail } from "../rules/forms.ts";
import type { Db, SubscriberStatus } from "./db.ts";

export const SUBSCRIBER_STATUSES = ["pending", "confirmed", "unsubscribed", "bounced"] as const;

export type SubscriberRow = {
  email: string;
  status: SubscriberStatus;
  created_at: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
};

export function listSubscribers(db: Db, status?: SubscriberStatus): Promise<SubscriberRow[]> {
  let query = db
    .selectFrom("subscribers")
    .select(["email", "status", "created_at", "confirmed_at", "unsubscribed_at"])
    .orderBy("id");
  if (status) query = query.where("status", "=", status);
  return query.execute();
}

export const CSV_COLUMNS = ["email", "status", "created_at", "confirmed_at", "unsubscribed_at"] as const;

/** RFC 4180 quoting; a leading =, +, - or @ is quoted too, so a spreadsheet never runs a cell as a formula. */
function csvCell(value: string | null): string {
  const text = value ?? "";
  return /[",\r\n]|^[=+\-@]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function subscribersCsv(rows: readonly SubscriberRow[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const row of rows) lines.push(CSV_COLUMNS.map((column) => csvCell(row[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks), each with its first line number. */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let fieldStarted = false;
  const source = text.replace(/^\uFEFF/, "");
  for (let index = 0; index < source.length; index++) {
    const char = source[index] as string;
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        field += char;
      }
      continue;
    }
    if (char === '"' && field === "") {
      quoted = true;
      fieldStarted = true;
    } else if (char === ",") {
      fields.push(field);
      field = "";
      fieldStarted = true;
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[index + 1] === "\n") index++;
      if (fieldStarted || field !== "" || fields.length > 0)
        records.push({ line: recordLine, fields: [...fields, field] });
      fields = [];
      field = "";
      fieldStarted = false;
      line++;
      recordLine = line;
    } else {
      field += char;
      fieldStarted = true;
    }
  }
  if (fieldStarted || field !== "" || fields.length > 0) records.push({ line: recordLine, fields: [...fields, field] });
  return records;
}

export type ImportResult =
  | { ok: true; added: number; confirmed: number; unchanged: number }
  | { ok: false; problems: string[] };

/**
 * Imports a CSV of addresses as confirmed subscribers (moving from another service): the first
 * column is the email (a header line naming `email` is skipped; other columns are ignored). Every
 * row is checked first; any bad row imports nothing. Pending sign-ups become confirmed; people
 * who unsubscribed or bounced stay as they are (their choice outlives a move).
 */
export async function importSubscribers(db: Db, csv: string, now: Date = new Date()): Promise<ImportResult> {
  const records = parseCsv(csv);
  const problems: string[] = [];
  const emails = new Map<string, string>();
  for (const [index, record] of records.entries()) {
    const first = record.fields[0] ?? "";
    if (index === 0 && first.trim().toLowerCase() === "email") continue;
    const email = normalizeEmail(first);
    if (!isValidEmail(email)) problems.push(`line ${record.line}: "${first}" is not a valid email address`);
    else if (email.length > LIMITS.emailMaxLength)
      problems.push(`line ${record.line}: the email is over 254 characters`);
    else if (!emails.has(emailKey(email))) emails.set(emailKey(email), email);
  }
  if (problems.length > 0) return { ok: false, problems };
  if (emails.size === 0) return { ok: false, problems: ["the file holds no email address"] };

  const time = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let added = 0;
    let confirmed = 0;
    for (const [key, email] of emails) {
      const inserted = await trx
        .insertInto("subscribers")
        .values({ email, email_lower: key, created_at: time, status: "confirmed", confirmed_at: time })
        .onConflict((conflict) => conflict.column("email_lower").doNothing())
        .executeTakeFirst();
      if (inserted.numInsertedOrUpdatedRows === 1n) {
        added++;
        continue;
      }
      const updated = await trx
        .updateTable("subscribers")
        .set({ status: "confirmed", confirmed_at: time })
        .where("email_lower", "=", key)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (updated.numUpdatedRows === 1n) confirmed++;
    }
    return { ok: true, added, confirmed, unchanged: emails.size - added - confirmed };
  });
}

/**
 * Erases a person for a deletion request: their subscriber row, their newsletter deliveries and
 * the confirmation mails sent to them. Returns whether there was anyone to erase.
 */
export async function removeSubscriber(db: Db, email: string): Promise<boolean> {
  const key = emailKey(email);
  return db.transaction().execute(async (trx) => {
    const subscriber = await trx
      .selectFrom("subscribers")
      .select(["id", "email"])
      .where("email_lower", "=", key)
      .executeTakeFirst();
    if (!subscriber) return false;
    await trx.deleteFrom("newsletter_deliveries").where("subscriber_id", "=", subscriber.id).execute();
    const confirmations = await trx
      .selectFrom("messages")
      .select(["id", "email"])
      .where("kind", "=", "confirmation")
      .execute();
    const theirs = confirmations.filter((message) => emailKey(message.email) === key).map((message) => message.id);
    if (theirs.length > 0) await trx.deleteFrom("messages").where("id", "in", theirs).execute();
    await trx.deleteFrom("subscribers").where("id", "=", subscriber.id).execute();
    return true;
  });
}
