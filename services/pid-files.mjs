// Files that say a process holds something: its pid, written whole; a file whose process is gone holds nothing.
// Plain JavaScript: `npm run build` and `npm run restore` read them with no loader.
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { orUndefined } from "../catalogue/present.ts";

/** Whether process `pid` runs (EPERM: it does, as another user). */
export function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

export function holderOf(file) {
  const pid = Number(orUndefined(() => readFileSync(file, "utf8")));
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid) ? pid : undefined;
}

/** Takes `file` unless a running process holds it; the pid is linked into place, so no reader sees half a file. */
export function claim(file) {
  mkdirSync(dirname(file), { recursive: true });
  const written = `${file}.${process.pid}`;
  writeFileSync(written, `${process.pid}\n`);
  try {
    for (;;) {
      try {
        linkSync(written, file);
        return true;
      } catch (error) {
        if (error.code !== "EEXIST") throw error;
      }
      if (holderOf(file) !== undefined) return false;
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(written, { force: true });
  }
}

/** Gives `file` up if this process holds it; not held, or already gone, there is nothing to give up. */
export function release(file) {
  orUndefined(() => Number(readFileSync(file, "utf8")) === process.pid && rmSync(file));
}

/** `folder`'s files named after a running process's pid (others are removed): pid → the file's text. */
export function runningMarks(folder) {
  const marks = new Map();
  for (const name of orUndefined(() => readdirSync(folder)) ?? []) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      if (pid === process.pid || isRunning(pid)) marks.set(pid, readFileSync(join(folder, name), "utf8").trim());
      else rmSync(join(folder, name), { force: true });
    } catch {
      // Removed meanwhile by its process.
    }
  }
  return marks;
}

/** Marks `folder` with this process's pid and `text`; false when the folder cannot be written. */
export function mark(folder, text = "") {
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, String(process.pid)), `${text}\n`);
    return true;
  } catch {
    return false;
  }
}

export function unmark(folder) {
  rmSync(join(folder, String(process.pid)), { force: true });
}
