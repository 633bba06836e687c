/** Plain-text tables: a title line, a header row, rows; numbers aligned right. */
import { present } from "../catalogue/present.ts";

export type Cell = string | number | null | undefined;

export function formatCell(cell: Cell): string {
  if (cell === null || cell === undefined) return "–";
  if (typeof cell === "number") return Number.isFinite(cell) ? cell.toLocaleString("en-US") : "–";
  return cell;
}

export function table(title: string, header: string[], rows: Cell[][], notes: string[] = []): string {
  const body = rows.map((row) => row.map(formatCell));
  const text = [header, ...body];
  const numeric = header.map((_, column) => rows.length > 0 && rows.every((row) => typeof row[column] !== "string"));
  const widths = header.map((_, column) => Math.max(...text.map((row) => (row[column] ?? "").length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => {
        const width = present(widths[column], "a header cell above every cell of a row");
        return numeric[column] ? cell.padStart(width) : cell.padEnd(width);
      })
      .join("  ")
      .trimEnd();
  const rule = "-".repeat(widths.reduce((sum, width) => sum + width, 0) + 2 * (widths.length - 1));
  return [title, rule, line(header), rule, ...body.map(line), ...notes.map((note) => `  ${note}`), ""].join("\n");
}
