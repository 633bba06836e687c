/**
 * A large file written piece by piece, so that a test of a size limit never holds the file in
 * memory: `head`, then `piece(0)`, `piece(1)` … until the file has at least `bytes` bytes, then `tail`.
 */
import { closeSync, openSync, writeSync } from "node:fs";

const CHUNK_BYTES = 64 * 1024;

export function writeLargeFile(
  path: string,
  bytes: number,
  { head = "", piece, tail = "" }: { head?: string; piece: (index: number) => string; tail?: string },
): void {
  const file = openSync(path, "w");
  try {
    let written = writeSync(file, head);
    let chunk: string[] = [];
    let chunkBytes = 0;
    for (let index = 0; written + chunkBytes < bytes; index++) {
      const next = piece(index);
      chunk.push(next);
      chunkBytes += Buffer.byteLength(next);
      if (chunkBytes < CHUNK_BYTES) continue;
      written += writeSync(file, chunk.join(""));
      chunk = [];
      chunkBytes = 0;
    }
    writeSync(file, chunk.join("") + tail);
  } finally {
    closeSync(file);
  }
}
