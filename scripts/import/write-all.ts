/**
 * `--write` writes all of an import's files or none. Every file is first written under a staging
 * folder beside content/ (the same filesystem, and out of the loader's sight), the staged files are
 * checked, and only then is each moved into place: a new file by a hard link, which never replaces
 * one that appeared meanwhile; site.yaml, the one file an import edits, by a rename that keeps the
 * old one until the end. A move that fails takes back every move before it.
 */
import { linkSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A file the import writes, its path relative to the project. */
export type Output = { path: string; text?: string; bytes?: Buffer; replaces?: boolean; label: string };

export class NotWritten extends Error {}

/** Moves one staged file into place; returns how to take the move back. */
function moveIntoPlace(staging: string, root: string, output: Output): () => void {
  const staged = join(staging, output.path);
  const target = join(root, output.path);
  const createdFolder = mkdirSync(dirname(target), { recursive: true });
  const removeCreatedFolder = () => createdFolder && rmSync(createdFolder, { recursive: true, force: true });
  try {
    if (output.replaces) {
      const before = `${staged}.before`;
      renameSync(target, before);
      renameSync(staged, target);
      return () => renameSync(before, target);
    }
    linkSync(staged, target);
  } catch (error) {
    removeCreatedFolder();
    const code = (error as NodeJS.ErrnoException).code;
    throw new NotWritten(
      code === "EEXIST"
        ? `${output.path} appeared while the import ran; run it again`
        : `${output.path}: ${code ?? error}`,
    );
  }
  return () => {
    unlinkSync(target);
    removeCreatedFolder();
  };
}

/**
 * Writes every output under `root`, or none of them: `check` sees the staged files (under the
 * folder it is given, at their own paths) and throws to stop before anything moves.
 */
export function writeAllOrNone(root: string, outputs: readonly Output[], check: (staging: string) => void): void {
  const staging = mkdtempSync(join(root, ".import-"));
  const undo: (() => void)[] = [];
  try {
    for (const output of outputs) {
      const file = join(staging, output.path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, output.bytes ?? output.text ?? "", { flag: "wx" });
    }
    check(staging);
    for (const output of outputs) undo.push(moveIntoPlace(staging, root, output));
  } catch (error) {
    const notTakenBack = undo.reverse().flatMap((takeBack, index) => {
      try {
        takeBack();
        return [];
      } catch {
        return [outputs[undo.length - 1 - index]?.path ?? ""];
      }
    });
    if (notTakenBack.length > 0) {
      throw new NotWritten(
        `${(error as Error).message}; and these could not be taken back: ${notTakenBack.join(", ")}`,
      );
    }
    throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
