import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

/** A different secret at `to` is kept, never overwritten: the links mailed before were signed with it. */
export function copySecret(from, to, stamp) {
  const value = readFileSync(from);
  if (existsSync(to) && readFileSync(to).equals(value)) return false;
  if (existsSync(to)) renameSync(to, `${to}.replaced-${stamp}`);
  writeFileSync(`${to}.partial`, value, { mode: 0o600 });
  renameSync(`${to}.partial`, to);
  return true;
}
