// SQLite's backup API copies a consistent snapshot while the server writes; `cp` would miss the WAL. The secret is
// kept beside the backups because mailed links only work with the secret that signed them.
// Plain JavaScript so it runs on a production machine with `node` alone (docs/deploy.md).
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { commandOptions, copySecret, privateFolder, stamp } from "./backups.mjs";

const BACKUP_NAME = /^site-\d{8}T\d{6}Z\.db$/;

if (process.env.DATABASE_URL) {
  console.error(
    "DATABASE_URL is set: the data is in PostgreSQL, not in DATA_DIR. Back it up with pg_dump or your provider's backups (docs/deploy.md, section Many machines).",
  );
  process.exit(2);
}
const { values, exit } = commandOptions(
  { to: { type: "string" }, keep: { type: "string" } },
  "Usage: npm run backup -- --to <folder> [--keep N]   (reads DATA_DIR, default ./data)",
);
if (!values.to) exit("--to <folder> is required.");
const to = resolve(values.to);
const keep = values.keep === undefined ? undefined : Number(values.keep);
if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1)) exit("--keep must be a whole number ≥ 1.");
const time = stamp();

const dataDir = resolve(process.env.DATA_DIR || "./data");
const source = join(dataDir, "site.db");
privateFolder(to);
const target = join(to, `site-${time}.db`);
const partial = `${target}.partial`;

let database;
try {
  database = new Database(source, { fileMustExist: true });
} catch (error) {
  console.error(`Cannot open the database ${source} (DATA_DIR): ${error.message}`);
  process.exit(1);
}
try {
  await database.backup(partial);
} finally {
  database.close();
}

// The copy inherits WAL mode; a backup must be one self-contained file.
const copy = new Database(partial);
copy.pragma("journal_mode = DELETE");
const check = copy.pragma("integrity_check", { simple: true });
copy.close();
if (check !== "ok") {
  rmSync(partial, { force: true });
  console.error(`The backup failed its integrity check (${check}); nothing was kept.`);
  process.exit(1);
}
renameSync(partial, target);
console.log(`Backed up ${source} to ${target}`);

const secret = join(dataDir, "secret");
const keptSecret = join(to, "secret");
if (existsSync(secret) && copySecret(secret, keptSecret, time)) {
  console.log(`Kept the newsletter's secret beside the backups: ${keptSecret}`);
}

if (keep !== undefined) {
  const backups = readdirSync(to)
    .filter((name) => BACKUP_NAME.test(name))
    .sort();
  for (const old of backups.slice(0, -keep)) {
    rmSync(join(to, old));
    console.log(`Removed the old backup ${join(to, old)}`);
  }
}
