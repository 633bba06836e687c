/** Plain-text tables: a title line, a header row, rows; numbers aligned right. */

export type Cell = string | number | null | undefined;

export function formatCell(cell: Cell): string {
  if (cell === null || cell === undefined) return "–";
  if (typeof cell === "number") return Number.isFinite(cell) ? cell.toLocaleString("en-US") : "–";
  return cell;
}

export function table(title: string, header: string[], rows: Cell[][], notes: string[] = []): string {
  const text = [header, ...rows.map((row) => row.map(formatCell))];
  const numeric = header.map((_, column) => rows.length > 0 && rows.every((row) => typeof row[column] !== "string"));
  const widths = header.map((_, column) => Math.max(...text.map((row) => (row[column] ?? "").length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join("  ")
      .trimEnd();
  const rule = "-".repeat(widths.reduce((sum, width) => sum + width, 0) + 2 * (widths.length - 1));
  return [title, rule, line(text[0]), rule, ...text.slice(1).map(line), ...notes.map((note) => `  ${note}`), ""].join(
    "\n",
  );
}
