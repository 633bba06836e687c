import { writeFileSync } from "node:fs";

/** Writes a file that is not there yet; false when one is. */
export function writeNewFile(path: string, data: string, mode?: number): boolean {
  try {
    writeFileSync(path, data, { flag: "wx", mode });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
