import { stringify } from "csv-stringify/sync";
import { markdownWith, renderWithAbsoluteLinks } from "../../catalogue/derive.ts";
import { nestingProblem } from "../../catalogue/nesting.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import { goodreadsTitle } from "../../catalogue/series.ts";
import { slugify } from "../../catalogue/slug.ts";
import { spreadsheetSafe } from "../../rules/spreadsheet-cells.ts";
import {
  type BookSource,
  labelsFrom,
  normaliseIsbn,
  readBooks,
  SHELVES_BY_NAME,
  sourceDay,
  sourceDayText,
  starsOf,
} from "./book.ts";
import { reviewToMarkdown } from "./html-markdown.ts";
import type { SiteNote } from "./site-notes.ts";

/** In Goodreads' order: its importer takes its own format. */
export const GOODREADS_COLUMNS =
  "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Recommended For,Recommended By,Owned Copies,Original Purchase Date,Original Purchase Location,Condition,Condition Description,BCID".split(
    ",",
  );

const GOODREADS_SHELVES = { ...SHELVES_BY_NAME, dnf: "did-not-finish" } as const;
const goodreadsShelfOf = (shelf: Shelf) =>
  ({ read: "read", reading: "currently-reading", want: "to-read", "did-not-finish": "did-not-finish" })[shelf];

const GOODREADS: BookSource = {
  what: "a Goodreads export (Export Library on goodreads.com)",
  required: ["Title", "Author", "My Rating", "Date Added", "Exclusive Shelf"],
  author: "Author",
  shelf: "Exclusive Shelf",
  rating: "My Rating",
  review: "My Review",
  shelves: GOODREADS_SHELVES,
  readings: ({ line, field, title, author, shelf }, rating, remark) => {
    const dayColumn =
      (shelf === "read" || shelf === "did-not-finish") && field("Date Read") ? "Date Read" : "Date Added";
    const date = sourceDay(field(dayColumn));
    if (!date) return `${dayColumn} "${field(dayColumn)}" is not a day written like 2019/03/14`;
    const tooDeep = nestingProblem(field("My Review"));
    if (tooDeep) return `My Review ${tooDeep}`;
    const readCount = Number(field("Read Count"));
    if (shelf === "read" && readCount > 1) {
      remark(
        `line ${line}: "${title}" was read ${readCount} times; Goodreads exports the last reading only, so one note is made (add the others with npm run new).`,
      );
    }
    const labels = labelsFrom(field("Bookshelves")).filter((label) => !(label.toLowerCase() in GOODREADS_SHELVES));
    const isbn = normaliseIsbn(field("ISBN13")) || normaliseIsbn(field("ISBN"));
    return [
      { line, title, author, isbn, shelf, date, rating, labels, review: reviewToMarkdown(field("My Review")).markdown },
    ];
  },
};

export const readGoodreads = (input: string | AsyncIterable<string>, scale: number) =>
  readBooks(input, GOODREADS, scale);

function goodreadsRow(note: SiteNote, scale: number, siteUrl: string): Record<string, string> {
  const shelf = goodreadsShelfOf(note.shelf);
  const read = note.shelf === "read" || note.shelf === "did-not-finish";
  return {
    Title: goodreadsTitle(note.title, note.series),
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

// Goodreads' own marks, around the spoiler's paragraphs.
const goodreadsMarkdown = markdownWith(
  (html) => `<p>[spoiler]${html.trim().replace(/^<p>|<\/p>$/g, "")}[/spoiler]</p>`,
);

export function reviewToHtml(markdown: string, siteUrl: string): string {
  return renderWithAbsoluteLinks(markdown, siteUrl, goodreadsMarkdown)
    .trim()
    .replace(/<br \/>\n?/g, "<br/>")
    .replace(/>\n+</g, "><")
    .replace(/\n/g, " ")
    .replace(/<\/p><p>/g, "<br/><br/>")
    .replace(/^<p>|<\/p>$/g, "");
}

export function goodreadsCsv(notes: readonly SiteNote[], scale: number, siteUrl: string): string {
  const rows = notes.map((note) => goodreadsRow(note, scale, siteUrl));
  return stringify(rows, {
    header: true,
    columns: GOODREADS_COLUMNS,
    record_delimiter: "unix",
    quoted_match: /^'/,
    // Goodreads' importer expects its own `="…"` ISBN cells.
    cast: { string: (cell, { column }) => (column === "ISBN" || column === "ISBN13" ? cell : spreadsheetSafe(cell)) },
  });
}
