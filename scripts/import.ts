import { importCommand } from "./import/command.ts";

process.exitCode = await importCommand(
  process.argv.slice(2),
  (text) => console.log(text),
  (text) => console.error(text),
);
