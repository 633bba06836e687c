/**
 * Backups and restores hold every subscriber's address and every contact message: the files they
 * write are readable by their owner only (0600), in folders only their owner may enter (0700).
 * Plain JavaScript, like scripts/backup.mjs and scripts/restore.mjs.
 */
import { chmodSync, mkdirSync, statSync } from "node:fs";

/** From here on, every file and folder this process creates is its owner's only. */
export function createPrivately() {
  process.umask(0o077);
}

/**
 * Makes `folder` (and any missing parent) owner-only, or narrows an existing one that others may
 * read; a folder that cannot be narrowed (not ours) is said, not silently left open.
 */
export function privateFolder(folder) {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const mode = statSync(folder).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  try {
    chmodSync(folder, 0o700);
    console.log(`Made ${folder} readable by its owner only (it was ${mode.toString(8)}).`);
  } catch (error) {
    console.error(
      `Warning: ${folder} is readable by others (${mode.toString(8)}) and could not be changed: ${error.message}`,
    );
  }
}
