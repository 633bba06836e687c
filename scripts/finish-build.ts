/**
 * Runs once after `react-router build`: writes the generated book covers and a brotli and a
 * gzip copy of every compressible file, so the server never compresses per request.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { coverPath, coverSvg } from "../catalogue/cover";
import { loadCatalogue } from "../catalogue/disk";

const COMPRESSIBLE = /\.(html|js|css|svg|json|data|xml|txt|webmanifest)$/;
/** Below this a compressed copy saves less than the extra bytes of headers. */
const MIN_COMPRESS_BYTES = 1024;

export async function finishClientBuild(root: string, buildDirectory: string): Promise<void> {
  const clientDir = join(buildDirectory, "client");
  writeCovers(root, clientDir);
  precompress(clientDir);
}

function writeCovers(root: string, clientDir: string): void {
  mkdirSync(join(clientDir, "covers"), { recursive: true });
  for (const note of loadCatalogue(root).books) {
    if (note.photo === coverPath(note.slug)) {
      writeFileSync(join(clientDir, note.photo), coverSvg(note.name, note.author));
    }
  }
}

function precompress(dir: string): void {
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = join(dir, name);
    if (!COMPRESSIBLE.test(file) || !statSync(file).isFile()) continue;
    const content = readFileSync(file);
    if (content.length < MIN_COMPRESS_BYTES) continue;
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
}
