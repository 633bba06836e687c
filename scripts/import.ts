/**
 * `npm run import -- goodreads|storygraph|medium <file-or-folder> [options]`: brings a reading
 * history or a blog's essays into content/ (scripts/import/command.ts; `--help` for the options).
 */
import { importCommand } from "./import/command.ts";

process.exitCode = await importCommand(
  process.argv.slice(2),
  (text) => console.log(text),
  (text) => console.error(text),
);
