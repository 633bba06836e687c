import { resolve } from "node:path";
import { copyToPostgres } from "../services/db/copy.ts";
import { openDatabase, openPostgres } from "../services/db/database.ts";

const dataDir = resolve(process.env.DATA_DIR || "./data");

const HELP = `Usage: npm run db -- <command>

Commands:
  copy --to postgres://user:password@host:5432/database
        copies the subscribers, contact messages and newsletter sends of the SQLite database in
        DATA_DIR (now ${dataDir}) into that PostgreSQL database, keeping their ids, then checks
        that every row arrived. Safe to run again: rows already copied are left as they are.
        Stop the server first, so no new row arrives during the copy; then start the instances
        with DATABASE_URL set to the same URL (and SECRET_KEY to the value in DATA_DIR/secret, so
        the links already mailed keep working).
  --help  this text`;

function fail(message: string, code = 2): never {
  console.error(code === 2 ? `${message}\n\n${HELP}` : message);
  process.exit(code);
}

const [command, ...rest] = process.argv.slice(2);
if (!command || command === "--help" || command === "-h" || command === "help") {
  console.log(HELP);
  process.exit(0);
}
if (command !== "copy") fail(`Unknown command "${command}".`);
const target = rest[0] === "--to" ? rest[1] : undefined;
if (rest.length !== 2 || !target) fail("copy takes --to and a postgres:// URL.");
if (!/^postgres(ql)?:\/\//.test(target)) fail(`--to must be a postgres:// URL, not "${target}".`);

const source = await openDatabase(dataDir);
const destination = await openPostgres(target).catch(async (error: unknown) => {
  await source.close();
  return fail(`Could not open ${new URL(target).host}: ${error instanceof Error ? error.message : String(error)}`, 1);
});
try {
  for (const table of await copyToPostgres(source, destination)) {
    console.log(
      `${table.table}: ${table.source} in SQLite, ${table.copied} copied, ${table.alreadyThere} already there — all ${table.source} verified`,
    );
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error), 1);
} finally {
  await source.close();
  await destination.close();
}
