import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { emailKey, isValidEmail, LIMITS, normalizeEmail } from "../../rules/forms.ts";
import { spreadsheetSafe, withoutFormulaGuard } from "../../rules/spreadsheet-cells.ts";
import { type Db, SUBSCRIBER_STATUSES, type SubscriberStatus, type SubscribersTable } from "../db/database.ts";

const COLUMNS = ["email", "status", "created_at", "confirmed_at", "unsubscribed_at"] as const;

export type SubscriberRow = Pick<SubscribersTable, (typeof COLUMNS)[number]>;

export function listSubscribers(db: Db, status?: SubscriberStatus): Promise<SubscriberRow[]> {
  let query = db.selectFrom("subscribers").select(COLUMNS).orderBy("id");
  if (status) query = query.where("status", "=", status);
  return query.execute();
}

export async function confirmedCount(db: Db): Promise<number> {
  const { count } = await db
    .selectFrom("subscribers")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("status", "=", "confirmed")
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** An address a spreadsheet would run as a formula gets a guard, which `import` takes off. */
export function subscribersCsv(rows: readonly SubscriberRow[]): string {
  return stringify(
    rows.map((row) => ({ ...row, email: spreadsheetSafe(row.email) })),
    {
      header: true,
      columns: [...COLUMNS],
      record_delimiter: "windows",
      quoted_match: /^[=+\-@'\t\r]|[\r\n]/,
    },
  );
}

function parseCsv(text: string): { line: number; fields: string[] }[] {
  const records = parse(text, {
    bom: true,
    info: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
  }) as unknown as { info: { lines: number }; record: string[] }[];
  // The parser counts the line a record ends on; line breaks inside its quoted fields came before.
  return records.map(({ info, record }) => ({
    line: info.lines - record.join("").split(/\r\n|\n|\r/).length + 1,
    fields: record,
  }));
}

export type ImportResult =
  | { ok: true; added: number; confirmed: number; unchanged: number }
  | { ok: false; problems: string[] };

type ImportRow = Omit<SubscriberRow, "created_at"> & { created_at: string | null };

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

function rowProblem({ email, status, ...dates }: ImportRow, given: string): string | undefined {
  if (!isValidEmail(email)) return `"${given}" is not a valid email address`;
  if (email.length > LIMITS.emailMaxLength) return `the email is over ${LIMITS.emailMaxLength} characters`;
  if (!SUBSCRIBER_STATUSES.includes(status))
    return `the status "${status}" is not one of ${SUBSCRIBER_STATUSES.join(", ")}`;
  const badDate = Object.entries(dates).find(([, value]) => value !== null && !ISO_INSTANT.test(value));
  return badDate && `${badDate[0]} "${badDate[1]}" is not a time like 2025-04-06T12:00:00.000Z`;
}

/** Any bad row imports nothing; an address already present stays as it is, except pending → confirmed (an unsubscribe outlives a move). */
export async function importSubscribers(db: Db, csv: string, now: Date = new Date()): Promise<ImportResult> {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(csv);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    return { ok: false, problems: [`line ${error.lines}: ${error.message.replace(/ at line \d+.*$/, "")}`] };
  }
  const header = records[0]?.fields.map((name) => name.trim().toLowerCase()) ?? [];
  const hasHeader = header.includes("email");
  const at = (fields: string[], name: string) => {
    const index = hasHeader ? header.indexOf(name) : name === "email" ? 0 : -1;
    return index < 0 ? "" : (fields[index] ?? "").trim();
  };
  const problems: string[] = [];
  const rows = new Map<string, ImportRow>();
  for (const { line, fields } of hasHeader ? records.slice(1) : records) {
    const given = withoutFormulaGuard(at(fields, "email"));
    const row: ImportRow = {
      email: normalizeEmail(given),
      status: (at(fields, "status") || "confirmed") as SubscriberStatus,
      created_at: at(fields, "created_at") || null,
      confirmed_at: at(fields, "confirmed_at") || null,
      unsubscribed_at: at(fields, "unsubscribed_at") || null,
    };
    const problem = rowProblem(row, given);
    if (problem) problems.push(`line ${line}: ${problem}`);
    else if (!rows.has(emailKey(row.email))) rows.set(emailKey(row.email), row);
  }
  if (problems.length > 0) return { ok: false, problems };
  if (rows.size === 0) return { ok: false, problems: ["the file holds no email address"] };

  const time = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let added = 0;
    let confirmed = 0;
    for (const [key, row] of rows) {
      const inserted = await trx
        .insertInto("subscribers")
        .values({
          email: row.email,
          email_lower: key,
          status: row.status,
          created_at: row.created_at ?? time,
          confirmed_at:
            row.status === "pending" ? null : (row.confirmed_at ?? (row.status === "confirmed" ? time : null)),
          unsubscribed_at: row.status === "unsubscribed" ? (row.unsubscribed_at ?? time) : null,
        })
        .onConflict((conflict) => conflict.column("email_lower").doNothing())
        .executeTakeFirst();
      if (inserted.numInsertedOrUpdatedRows === 1n) {
        added++;
        continue;
      }
      if (row.status !== "confirmed") continue;
      const updated = await trx
        .updateTable("subscribers")
        .set({ status: "confirmed", confirmed_at: row.confirmed_at ?? time })
        .where("email_lower", "=", key)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (updated.numUpdatedRows === 1n) confirmed++;
    }
    return { ok: true, added, confirmed, unchanged: rows.size - added - confirmed };
  });
}

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
