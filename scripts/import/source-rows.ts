import { MAX_CONTENT_FILE_BYTES, sizeText } from "../../catalogue/limits.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import { withoutFormulaGuard } from "../../rules/spreadsheet-cells.ts";
import { type SourceBooks, starsFrom } from "./book.ts";
import type { CsvTable } from "./csv.ts";

export type SourceColumns = {
  author: string;
  shelf: string;
  shelfName: string;
  rating: string;
  /** One larger than a note may hold skips its row. */
  review: string;
  shelves: Readonly<Record<string, Shelf>>;
};

export type SourceRow = {
  line: number;
  field: (name: string) => string;
  title: string;
  author: string;
  shelf: Shelf;
  stars: number;
  unreadable: (reason: string) => void;
};

/** Yielded as the walk goes so that the skipped rows keep the file's order. */
export function sourceRows(table: CsvTable, columns: SourceColumns): { books: SourceBooks; rows: Iterable<SourceRow> } {
  const books: SourceBooks = {
    rows: table.rows.length + table.broken.length,
    readings: [],
    skipped: table.broken.map(({ line, problem }) => ({ line, what: "a row", reason: `unreadable: ${problem}` })),
    remarks: [],
  };
  function* rows(): Generator<SourceRow> {
    for (const { line, fields } of table.rows) {
      const field = (name: string) => withoutFormulaGuard((fields[name] ?? "").trim());
      const title = field("Title");
      const what = title ? `"${title}"` : "a row";
      const unreadable = (reason: string) => {
        books.skipped.push({ line, what, reason: `unreadable: ${reason}` });
      };
      const author = field(columns.author);
      if (!title || !author) {
        unreadable(`it has no ${title ? "author" : "title"}`);
        continue;
      }
      const shelfText = field(columns.shelf).toLowerCase();
      const shelf = columns.shelves[shelfText];
      if (!shelf) {
        unreadable(`its ${columns.shelfName} "${shelfText}" is none of ${Object.keys(columns.shelves).join(", ")}`);
        continue;
      }
      const reviewBytes = Buffer.byteLength(fields[columns.review] ?? "");
      if (reviewBytes > MAX_CONTENT_FILE_BYTES) {
        books.skipped.push({
          line,
          what,
          reason: `its ${columns.review} is ${sizeText(reviewBytes)}, more than a note may hold (${sizeText(MAX_CONTENT_FILE_BYTES)})`,
        });
        continue;
      }
      const stars = starsFrom(field(columns.rating));
      if (stars === null) {
        unreadable(`${columns.rating} "${field(columns.rating)}" is not a number of stars from 0 to 5`);
        continue;
      }
      yield { line, field, title, author, shelf, stars, unreadable };
    }
  }
  return { books, rows: rows() };
}
