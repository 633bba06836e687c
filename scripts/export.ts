/**
 * `npm run export -- goodreads [--out file.csv]`: the site's notes as a CSV file Goodreads'
 * importer reads (scripts/import/export-command.ts; `--help` for the options).
 */
import { exportCommand } from "./import/export-command.ts";

process.exitCode = exportCommand(
  process.argv.slice(2),
  (text) => console.log(text),
  (text) => console.error(text),
);
