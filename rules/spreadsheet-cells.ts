// OWASP's CSV injection list; a cell starting with the guard gets one more, so removing one gives it back.
const FORMULA_START = /^[=+\-@\t\r']/;
const GUARD = "'";

export const spreadsheetSafe = (cell: string) => (FORMULA_START.test(cell) ? `${GUARD}${cell}` : cell);

export const withoutFormulaGuard = (cell: string) =>
  cell.startsWith(GUARD) && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
