/**
 * The newsletter's secret file, copied between DATA_DIR and the backup folder by
 * scripts/backup.mjs and scripts/restore.mjs. Plain JavaScript, like them.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

/**
 * Copies the secret file `from` to `to` (readable by its owner only) unless `to` already holds the
 * same secret. A different secret at `to` is kept as `<to>.replaced-<stamp>`, never overwritten:
 * the links mailed before were signed with it. Answers whether anything was written.
 */
export function copySecret(from, to, stamp) {
  const value = readFileSync(from);
  if (existsSync(to) && readFileSync(to).equals(value)) return false;
  if (existsSync(to)) renameSync(to, `${to}.replaced-${stamp}`);
  writeFileSync(`${to}.partial`, value, { mode: 0o600 });
  renameSync(`${to}.partial`, to);
  return true;
}
