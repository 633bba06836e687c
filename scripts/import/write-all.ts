// A new file is moved in by a hard link, which never replaces one that appeared meanwhile; site.yaml by a rename
// that keeps the old one until the end. The staging folder sits beside content/: same file system, out of the loader's sight.
import { linkSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export type Output = { path: string; text?: string; bytes?: Buffer; replaces?: boolean };

export class NotWritten extends Error {}

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
