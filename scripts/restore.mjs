// Refused while a server runs on DATA_DIR: it would keep writing to the replaced file. The replaced database is kept
// as `site.db.replaced-<time>`, so a restore can itself be undone.
import { chmodSync, copyFileSync, existsSync, renameSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import { claimForRestore, releaseForRestore } from "../services/data-dir-claims.mjs";
import { commandOptions, copySecret, privateFolder, stamp } from "./backups.mjs";

const { values, exit } = commandOptions(
  { from: { type: "string" } },
  "Usage: npm run restore -- --from <backup.db>   (writes DATA_DIR/site.db, default ./data; stop the server first)",
);
if (!values.from) exit("--from <backup.db> is required.");
const from = resolve(values.from);

try {
  const backup = new Database(from, { readonly: true, fileMustExist: true });
  const check = backup.pragma("integrity_check", { simple: true });
  backup.close();
  if (check !== "ok") throw new Error(`integrity check says: ${check}`);
} catch (error) {
  console.error(`${from} is not a usable backup: ${error.message}`);
  process.exit(1);
}

const dataDir = resolve(process.env.DATA_DIR || "./data");
privateFolder(dataDir);
const refused = claimForRestore(dataDir);
if (refused) {
  console.error(refused);
  process.exit(1);
}
process.once("exit", () => releaseForRestore(dataDir));
const target = join(dataDir, "site.db");
const time = stamp();
for (const suffix of ["", "-wal", "-shm"]) {
  if (existsSync(target + suffix)) renameSync(target + suffix, `${target}.replaced-${time}${suffix}`);
}
copyFileSync(from, `${target}.restoring`);
// A copy keeps its source's mode: a backup made by an older version may be readable by others.
chmodSync(`${target}.restoring`, 0o600);
renameSync(`${target}.restoring`, target);
console.log(`Restored ${from} to ${target}`);

const keptSecret = join(dirname(from), "secret");
const secret = join(dataDir, "secret");
if (existsSync(keptSecret)) {
  if (copySecret(keptSecret, secret, time)) console.log(`Restored the newsletter's secret to ${secret}`);
  if (process.env.SECRET_KEY) console.log("SECRET_KEY is set, so the server signs with it, not with that file.");
}
