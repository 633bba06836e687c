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
    let chunk = "";
    for (let index = 0; written + Buffer.byteLength(chunk) < bytes; index++) {
      chunk += piece(index);
      if (chunk.length < CHUNK_BYTES) continue;
      written += writeSync(file, chunk);
      chunk = "";
    }
    writeSync(file, chunk + tail);
  } finally {
    closeSync(file);
  }
}
