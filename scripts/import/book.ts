import { parseContentDate } from "../../catalogue/dates.ts";
import { MAX_CONTENT_FILE_BYTES, sizeText } from "../../catalogue/limits.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import { type Series, splitSeries, withoutSeries } from "../../catalogue/series.ts";
import { slugify } from "../../catalogue/slug.ts";
import { withoutFormulaGuard } from "../../rules/spreadsheet-cells.ts";
import { readCsv } from "./csv.ts";

export type Reading = {
  line: number;
  title: string;
  series?: Series | null;
  author: string;
  isbn: string;
  shelf: Shelf;
  /** Finished (read), started (reading), added (want), stopped (did-not-finish). */
  date: string;
  rating: number | null;
  labels: string[];
  review: string;
};

export const SHELVES_BY_NAME: Readonly<Record<string, Shelf>> = {
  read: "read",
  "currently-reading": "reading",
  "to-read": "want",
  "did-not-finish": "did-not-finish",
};

export type Skipped = { line: number | null; what: string; reason: string };

export type SourceBooks = { rows: number; readings: Reading[]; skipped: Skipped[]; remarks: string[] };

function isbn13Of(isbn10: string): string {
  const core = `978${isbn10.slice(0, 9)}`;
  const sum = [...core].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return `${core}${(10 - (sum % 10)) % 10}`;
}

/** Goodreads writes `="0735211299"` to keep spreadsheets from eating the zeros; StoryGraph puts its own ids in the column. */
export function normaliseIsbn(text: string): string {
  const bare = text
    .trim()
    .replace(/^="?|"$/g, "")
    .replace(/[\s-]/g, "")
    .toUpperCase();
  if (/^\d{13}$/.test(bare) && /^97[89]/.test(bare)) return bare;
  if (/^\d{9}[\dX]$/.test(bare)) return isbn13Of(bare);
  return "";
}

export function titleAuthorKey(title: string, author: string): string {
  const mainTitle = withoutSeries(title).replace(/\s*:\s.*$/, "");
  const firstAuthor = author.split(/,|&| and /)[0] ?? author;
  return `${slugify(mainTitle)}|${slugify(firstAuthor)}`;
}

/** StoryGraph rates in quarter stars; 0 stars is no rating. */
export function siteRating(stars: number, scale: number): number | null {
  if (stars === 0) return null;
  return Math.min(10, Math.round(stars * scale * 10) / 10);
}

/** Goodreads has no half stars. */
export function starsOf(rating: number, scale: number): number {
  return Math.min(5, Math.max(1, Math.round(rating / scale)));
}

export function sourceDay(text: string): string | null {
  const match = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(text.trim());
  if (!match) return null;
  const [, year, month, day] = match;
  return parseContentDate(`${month}/${day}/${year}`);
}

export const sourceDayText = (day: string) => day.replaceAll("-", "/");

function starsFrom(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return 0;
  const stars = Number(trimmed);
  return Number.isFinite(stars) && stars >= 0 && stars <= 5 ? stars : null;
}

export const labelsFrom = (text: string) =>
  text
    .split(",")
    .map((label) => label.trim())
    .filter(Boolean);

export type SourceRow = { line: number; field: (name: string) => string; title: string; author: string; shelf: Shelf };

/** What a CSV source differs in: its columns, and how one row becomes readings (or why it cannot). */
export type BookSource = {
  what: string;
  required: readonly string[];
  author: string;
  shelf: string;
  rating: string;
  /** One larger than a note may hold skips its row. */
  review: string;
  shelves: Readonly<Record<string, Shelf>>;
  readings: (row: SourceRow, rating: number | null, remark: (text: string) => void) => Reading[] | string;
};

export async function readBooks(input: string | AsyncIterable<string>, source: BookSource, scale: number) {
  const table = await readCsv(input);
  const missing = source.required.filter((column) => !table.header.includes(column));
  if (missing.length > 0) {
    throw new Error(
      `This is not ${source.what}: it has no column ${missing.map((column) => `"${column}"`).join(", ")}.`,
    );
  }
  const books: SourceBooks = {
    rows: table.rows.length + table.broken.length,
    readings: [],
    skipped: table.broken.map(({ line, problem }) => ({ line, what: "a row", reason: `unreadable: ${problem}` })),
    remarks: [],
  };
  const remark = (text: string) => books.remarks.push(text);
  for (const { line, fields } of table.rows) {
    const field = (name: string) => withoutFormulaGuard((fields[name] ?? "").trim());
    const { title, series } = splitSeries(field("Title"));
    const author = field(source.author);
    const shelfText = field(source.shelf).toLowerCase();
    const shelf = source.shelves[shelfText];
    const reviewBytes = Buffer.byteLength(fields[source.review] ?? "");
    const stars = starsFrom(field(source.rating));
    const skip = (reason: string) => books.skipped.push({ line, what: title ? `"${title}"` : "a row", reason });
    if (!title || !author) skip(`unreadable: it has no ${title ? "author" : "title"}`);
    else if (!shelf) {
      const known = Object.keys(source.shelves).join(", ");
      skip(`unreadable: its ${source.shelf.toLowerCase()} "${shelfText}" is none of ${known}`);
    } else if (reviewBytes > MAX_CONTENT_FILE_BYTES) {
      const limit = sizeText(MAX_CONTENT_FILE_BYTES);
      skip(`its ${source.review} is ${sizeText(reviewBytes)}, more than a note may hold (${limit})`);
    } else if (stars === null) {
      skip(`unreadable: ${source.rating} "${field(source.rating)}" is not a number of stars from 0 to 5`);
    } else {
      const readings = source.readings({ line, field, title, author, shelf }, siteRating(stars, scale), remark);
      if (typeof readings === "string") skip(`unreadable: ${readings}`);
      else books.readings.push(...readings.map((reading) => ({ ...reading, series })));
    }
  }
  return books;
}
