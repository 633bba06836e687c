import { Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { MAX_IMPORT_ROWS } from "./limits.ts";

export type CsvRow = { line: number; fields: Record<string, string> };
export type BrokenRow = { line: number; problem: string };
export type CsvTable = { header: string[]; rows: CsvRow[]; broken: BrokenRow[] };

/** Also across chunks, so that line numbers count the lines an editor shows. */
async function* unixLineEnds(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let carriedReturn = "";
  for await (const chunk of chunks) {
    const text = carriedReturn + chunk;
    carriedReturn = text.endsWith("\r") ? "\r" : "";
    yield text.slice(0, text.length - carriedReturn.length).replace(/\r\n/g, "\n");
  }
  if (carriedReturn) yield carriedReturn;
}

export function readCsv(input: string | AsyncIterable<string>, maxRows = MAX_IMPORT_ROWS): Promise<CsvTable> {
  const text = Readable.from(unixLineEnds(typeof input === "string" ? Readable.from([input]) : input));
  const parser = parse({
    bom: true,
    info: true,
    raw: true,
    record_delimiter: "\n",
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  const table: CsvTable = { header: [], rows: [], broken: [] };
  let lastLine = 0;
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      text.destroy();
      parser.destroy();
      reject(error);
    };
    parser.on("data", ({ record, info, raw }: { record: string[]; info: { lines: number }; raw: string }) => {
      // The raw record holds the blank lines before it and its own line end.
      const line = info.lines - raw.replace(/^\n+/, "").replace(/\n$/, "").split("\n").length + 1;
      lastLine = info.lines;
      if (record.every((field) => field.trim() === "")) return;
      if (table.header.length === 0) {
        table.header = record.map((name) => name.trim());
        return;
      }
      if (table.rows.length + table.broken.length === maxRows) {
        return fail(
          new Error(
            `line ${line}: the file has more than ${maxRows.toLocaleString("en")} rows, the most one import takes; split it and import the parts one after another`,
          ),
        );
      }
      if (record.length !== table.header.length) {
        table.broken.push({ line, problem: `has ${record.length} fields where the header has ${table.header.length}` });
        return;
      }
      table.rows.push({
        line,
        fields: Object.fromEntries(table.header.map((name, index) => [name, record[index] ?? ""])),
      });
    });
    parser.on("end", () => resolve(table));
    parser.on("error", (error) => {
      if (!(error instanceof CsvError)) return fail(error);
      const problem =
        error.code === "CSV_QUOTE_NOT_CLOSED"
          ? "opens a quote that is never closed, so the rest of the file is unreadable"
          : error.message.replace(/ (?:at|on) line \d+.*$/, "");
      table.broken.push({ line: lastLine + 1, problem });
      resolve(table);
    });
    text.on("error", fail);
    text.pipe(parser);
  });
}
