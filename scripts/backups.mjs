// What backup and restore share. Backups hold every subscriber's address and contact message, so they are their owner's only.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";

export function commandOptions(options, usage) {
  const exit = (problem) => {
    if (problem) console.error(problem);
    console.error(usage);
    process.exit(problem ? 2 : 0);
  };
  try {
    const { values } = parseArgs({ options: { ...options, help: { type: "boolean", short: "h" } } });
    if (values.help) exit();
    return { values, exit };
  } catch (error) {
    exit(error.message);
  }
}

/** Sortable, and safe in any file system. */
export const stamp = () => new Date().toISOString().replace(/[-:]|\.\d+/g, "");

/** Every file made after this is its owner's only; a folder that cannot be narrowed (not ours) is said, not left open. */
export function privateFolder(folder) {
  process.umask(0o077);
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

/** A different secret at `to` is kept, never overwritten: the links mailed before were signed with it. */
export function copySecret(from, to, time) {
  const value = readFileSync(from);
  if (existsSync(to) && readFileSync(to).equals(value)) return false;
  if (existsSync(to)) renameSync(to, `${to}.replaced-${time}`);
  writeFileSync(`${to}.partial`, value, { mode: 0o600 });
  renameSync(`${to}.partial`, to);
  return true;
}
