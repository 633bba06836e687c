/**
 * The files of a build, as a build where only the content changed treats them (scripts/build.mjs):
 * a file that already holds what the build would write is left as it is, with its compressed
 * copies, and whatever the build did not produce this time is removed. Such a build starts from
 * hard links to the served build's files: it writes every file anew (`writeNew`), never into one.
 */
import { readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const COMPRESSED_COPY = /\.(br|gz)$/;

/** Whether `file` holds exactly `body` already. */
export function holds(file: string, body: Buffer | string): boolean {
  try {
    return readFileSync(file).equals(typeof body === "string" ? Buffer.from(body) : body);
  } catch {
    return false;
  }
}

/** Writes `file` as a new file: a link to the served build's file is replaced, that file left as it was. */
export function writeNew(file: string, body: Buffer | string): void {
  rmSync(file, { force: true });
  writeFileSync(file, body);
}

/** Every file under `dir`, as absolute paths. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Removes from `dir` every file not in `keep` (absolute paths) with its compressed copies, every
 * copy whose file is gone, and the folders left empty: a deleted note leaves nothing behind.
 */
export function removeAllBut(dir: string, keep: ReadonlySet<string>): void {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  for (const file of files) {
    // A copy is kept with its file; a file of the site's own may end in .gz too.
    if (!keep.has(file) && !keep.has(file.replace(COMPRESSED_COPY, ""))) rmSync(file);
  }
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    // The deepest first, so that a folder whose only content was an empty folder goes too.
    .sort((a, b) => b.length - a.length);
  for (const folder of folders) {
    if (readdirSync(folder).length === 0) rmdirSync(folder);
  }
}
