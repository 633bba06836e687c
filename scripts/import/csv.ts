/**
 * The CSV files of Goodreads and StoryGraph, read by csv-parse: quoted fields with commas, quotes
 * and new lines inside, a byte-order mark, CRLF. A row that cannot be read is reported with its
 * line number instead of stopping the import.
 */
import { CsvError, parse } from "csv-parse/sync";

export type CsvRow = { line: number; fields: Record<string, string> };
export type BrokenRow = { line: number; problem: string };
export type CsvTable = { header: string[]; rows: CsvRow[]; broken: BrokenRow[] };

function problemOf(error: CsvError, columns: number): string {
  if (error.code === "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH" || error.code === "CSV_RECORD_INCONSISTENT_COLUMNS") {
    const fields = Array.isArray(error.record) ? error.record.length : "another number of";
    return `has ${fields} fields where the header has ${columns}`;
  }
  if (error.code === "CSV_QUOTE_NOT_CLOSED")
    return "opens a quote that is never closed, so the rest of the file is unreadable";
  return error.message.replace(/ on line \d+$/, "");
}

/**
 * The rows of a CSV file whose first line names the columns, each with the line it starts on
 * (a review with new lines spans several), and the rows that could not be read.
 */
export function readCsv(source: string): CsvTable {
  // One kind of line end, so that line numbers count the lines an editor shows.
  const text = source.replace(/\r\n?/g, "\n");
  const lines = text.split("\n");
  const rows: CsvRow[] = [];
  const broken: BrokenRow[] = [];
  let header: string[] = [];
  let lastLine = 0;
  /** The first line after the previous record that is not blank: where this record starts. */
  const startLine = () => {
    let line = lastLine + 1;
    while (line < lines.length && (lines[line - 1] ?? "").trim() === "") line++;
    return line;
  };
  try {
    parse(text, {
      bom: true,
      columns: (names: string[]) => {
        header = names.map((name) => name.trim());
        lastLine = 1;
        return header;
      },
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        if (!error) return;
        broken.push({ line: startLine(), problem: problemOf(error, header.length) });
        lastLine = Number(error.lines);
      },
      on_record: (record: Record<string, string>, { lines: endLine }: { lines: number }) => {
        rows.push({ line: startLine(), fields: record });
        lastLine = endLine;
        return record;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    broken.push({ line: startLine(), problem: problemOf(error, header.length) });
  }
  return { header, rows, broken };
}

/** The columns a file must have to be read as `what`, or the sentence saying which are missing. */
export function missingColumns(table: CsvTable, required: readonly string[], what: string): string | null {
  const missing = required.filter((column) => !table.header.includes(column));
  if (missing.length === 0) return null;
  return `This is not ${what}: it has no column ${missing.map((column) => `"${column}"`).join(", ")}.`;
}
