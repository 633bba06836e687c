import { importCommand } from "./import/command.ts";

process.exitCode = await importCommand(process.argv.slice(2), console.log, console.error);
