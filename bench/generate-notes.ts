/**
 * Book notes made up for a 10,000-note catalogue (the benchmark's measurements and the fast-typing
 * browser test): valid per content/README.md, the same on every run (a seeded generator), tagged
 * from the tags the project's own notes use.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { loadCatalogue } from "../catalogue/disk.ts";
import { seededRandom } from "../tests/support/random.ts";

const FIRST = ["Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonas", "Kira", "Leo"];
const LAST = ["Alvarez", "Brooks", "Chen", "Dubois", "Eriksen", "Fischer", "Gupta", "Hale", "Ito", "Jensen"];
const WORDS = ["habits", "focus", "history", "money", "design", "the mind", "leadership", "writing", "science"];

/** A plain grey PNG, shared by every generated note so the build draws no cover for each of them. */
export const GENERATED_COVER = "/images/bench-generated-cover.png";

/**
 * Writes notes into the project at `root` until it holds `total` notes: "Generated Book 0001" …
 * with authors, dates, 1–3 of the project's tags, ratings and reading times, all sharing one cover
 * image in public/. Returns how many files were written.
 */
export function generateNotes(root: string, total: number): number {
  const { notes, tags } = loadCatalogue(root);
  const count = Math.max(0, total - notes.length);
  if (tags.length === 0) throw new Error(`no tags found in ${join(root, "content/notes")}`);
  writeFileSync(join(root, "public", GENERATED_COVER), greyPng(200, 300));
  const { next, int, pick } = seededRandom(20_240_601);
  const width = Math.max(4, String(count).length);
  for (let i = 1; i <= count; i++) {
    const number = String(i).padStart(width, "0");
    const name = `Generated Book ${number}`;
    const noteTags = new Set<string>();
    const tagCount = 1 + int(3);
    while (noteTags.size < Math.min(tagCount, tags.length)) noteTags.add(pick(tags));
    const date = `${1 + int(12)}/${1 + int(28)}/${10 + int(15)}`;
    const lines = [
      "---",
      `name: ${JSON.stringify(name)}`,
      `author: ${JSON.stringify(`${pick(FIRST)} ${pick(LAST)}`)}`,
      `date: "${date}"`,
      `tags: ${JSON.stringify([...noteTags])}`,
      `rating: ${Math.round(next() * 100) / 10}`,
      `time: ${int(600)}`,
      `photo: "${GENERATED_COVER}"`,
      "---",
      `A generated note about ${pick(WORDS)} and ${pick(WORDS)}, for the benchmark.`,
      "",
    ];
    writeFileSync(join(root, "content/notes", `generated-book-${number}.md`), lines.join("\n"));
  }
  return count;
}

function greyPng(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 3, 0xcc);
  row[0] = 0; // filter: none
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
