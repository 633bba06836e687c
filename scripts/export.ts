import { exportCommand } from "./import/export-command.ts";

process.exitCode = exportCommand(process.argv.slice(2), console.log, console.error);
