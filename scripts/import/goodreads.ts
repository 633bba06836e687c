/**
 * Goodreads' "Export Library" CSV (31 columns), read into readings; and the same file written
 * back from the site's notes, for `npm run export -- goodreads`.
 */
import { stringify } from "csv-stringify/sync";
import { renderWithAbsoluteLinks } from "../../catalogue/derive.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import { slugify } from "../../catalogue/slug.ts";
import {
  labelsFrom,
  normaliseIsbn,
  type Reading,
  type SourceBooks,
  siteRating,
  sourceDay,
  sourceDayText,
  starsFrom,
  starsOf,
} from "./book.ts";
import { missingColumns, readCsv } from "./csv.ts";
import { reviewToMarkdown } from "./html-markdown.ts";
import type { SiteNote } from "./site-notes.ts";

/** The columns of Goodreads' export, in its order: its importer takes its own format. */
export const GOODREADS_COLUMNS = [
  "Book Id",
  "Title",
  "Author",
  "Author l-f",
  "Additional Authors",
  "ISBN",
  "ISBN13",
  "My Rating",
  "Average Rating",
  "Publisher",
  "Binding",
  "Number of Pages",
  "Year Published",
  "Original Publication Year",
  "Date Read",
  "Date Added",
  "Bookshelves",
  "Bookshelves with positions",
  "Exclusive Shelf",
  "My Review",
  "Spoiler",
  "Private Notes",
  "Read Count",
  "Recommended For",
  "Recommended By",
  "Owned Copies",
  "Original Purchase Date",
  "Original Purchase Location",
  "Condition",
  "Condition Description",
  "BCID",
] as const;

const REQUIRED = ["Title", "Author", "My Rating", "Date Added", "Exclusive Shelf"];

/** Goodreads' exclusive shelves and the site's shelves; "did-not-finish" is a shelf many readers add. */
export const GOODREADS_SHELVES: Record<string, Shelf> = {
  read: "read",
  "currently-reading": "reading",
  "to-read": "want",
  "did-not-finish": "did-not-finish",
  dnf: "did-not-finish",
};
export const goodreadsShelfOf = (shelf: Shelf) =>
  ({ read: "read", reading: "currently-reading", want: "to-read", "did-not-finish": "did-not-finish" })[shelf];

export function readGoodreads(text: string, scale: number): SourceBooks {
  const table = readCsv(text);
  const notGoodreads = missingColumns(table, REQUIRED, "a Goodreads export (Export Library on goodreads.com)");
  if (notGoodreads) throw new Error(notGoodreads);
  const result: SourceBooks = {
    rows: table.rows.length + table.broken.length,
    readings: [],
    skipped: table.broken.map(({ line, problem }) => ({ line, what: "a row", reason: `unreadable: ${problem}` })),
    remarks: [],
  };
  for (const { line, fields } of table.rows) {
    const field = (name: string) => (fields[name] ?? "").trim();
    const title = field("Title");
    const what = title ? `"${title}"` : "a row";
    const unreadable = (reason: string) => result.skipped.push({ line, what, reason: `unreadable: ${reason}` });
    const author = field("Author");
    if (!title || !author) {
      unreadable(`it has no ${title ? "author" : "title"}`);
      continue;
    }
    const exclusive = field("Exclusive Shelf").toLowerCase();
    const shelf = GOODREADS_SHELVES[exclusive];
    if (!shelf) {
      unreadable(`its exclusive shelf "${exclusive}" is none of ${Object.keys(GOODREADS_SHELVES).join(", ")}`);
      continue;
    }
    const stars = starsFrom(field("My Rating"));
    if (stars === null) {
      unreadable(`My Rating "${field("My Rating")}" is not a number of stars from 0 to 5`);
      continue;
    }
    const dayColumn =
      (shelf === "read" || shelf === "did-not-finish") && field("Date Read") ? "Date Read" : "Date Added";
    const date = sourceDay(field(dayColumn));
    if (!date) {
      unreadable(`${dayColumn} "${field(dayColumn)}" is not a day written like 2019/03/14`);
      continue;
    }
    const reading: Reading = {
      line,
      title,
      author,
      isbn: normaliseIsbn(field("ISBN13")) || normaliseIsbn(field("ISBN")),
      shelf,
      date,
      rating: siteRating(stars, scale),
      labels: labelsFrom(field("Bookshelves")).filter((label) => !(label.toLowerCase() in GOODREADS_SHELVES)),
      review: reviewToMarkdown(field("My Review")).markdown,
    };
    result.readings.push(reading);
    const readCount = Number(field("Read Count"));
    if (shelf === "read" && readCount > 1) {
      result.remarks.push(
        `line ${line}: "${title}" was read ${readCount} times; Goodreads exports the last reading only, so one note is made (add the others with npm run new).`,
      );
    }
  }
  return result;
}

/** The Goodreads row of a note: what Goodreads' importer reads, the other columns left empty. */
function goodreadsRow(note: SiteNote, scale: number, siteUrl: string): Record<string, string> {
  const shelf = goodreadsShelfOf(note.shelf);
  const read = note.shelf === "read" || note.shelf === "did-not-finish";
  return {
    Title: note.title,
    Author: note.author,
    ISBN: `="${note.isbn.length === 10 ? note.isbn : ""}"`,
    ISBN13: `="${note.isbn.length === 13 ? note.isbn : ""}"`,
    "My Rating": String(note.rating === null ? 0 : starsOf(note.rating, scale)),
    "Date Read": read ? sourceDayText(note.date) : "",
    "Date Added": sourceDayText(note.date),
    Bookshelves: [...(shelf === "read" ? [] : [shelf]), ...note.tags.map((tag) => slugify(tag))].join(", "),
    "Exclusive Shelf": shelf,
    "My Review": reviewToHtml(note.review, siteUrl),
    "Read Count": note.shelf === "read" ? "1" : "0",
  };
}

/**
 * A review as Goodreads keeps it: HTML with <br/><br/> between paragraphs, links absolute; the
 * [spoiler] markers are Goodreads' own.
 */
export function reviewToHtml(markdown: string, siteUrl: string): string {
  return renderWithAbsoluteLinks(markdown, siteUrl)
    .trim()
    .replace(/<br>\n?/g, "<br/>")
    .replace(/>\n+</g, "><")
    .replace(/\n/g, " ")
    .replace(/<\/p><p>/g, "<br/><br/>")
    .replace(/^<p>|<\/p>$/g, "");
}

/** Goodreads' export file for the site's notes (drafts left out): re-readings are rows of their own. */
export function goodreadsCsv(notes: readonly SiteNote[], scale: number, siteUrl: string): string {
  return stringify(
    notes.filter((note) => !note.draft).map((note) => goodreadsRow(note, scale, siteUrl)),
    { header: true, columns: [...GOODREADS_COLUMNS], record_delimiter: "unix" },
  );
}
