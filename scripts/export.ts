import { exportCommand } from "./import/export-command.ts";

process.exitCode = exportCommand(
  process.argv.slice(2),
  (text) => console.log(text),
  (text) => console.error(text),
);
