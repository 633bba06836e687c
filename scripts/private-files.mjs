// Backups hold every subscriber's address and contact message, so they are their owner's only.
import { chmodSync, mkdirSync, statSync } from "node:fs";

export function createPrivately() {
  process.umask(0o077);
}

/** A folder that cannot be narrowed (not ours) is said, not silently left open. */
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
