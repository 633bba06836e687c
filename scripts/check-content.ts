/**
 * `npm run check:content`: validates every content file as the build does, then prints a summary
 * and the references that lead nowhere. Exits 1 on a bad file or a broken reference.
 * `--root <dir>` checks another project folder (default: the current one).
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadCatalogue } from "../catalogue/disk.ts";
import { type Catalogue, ContentError } from "../catalogue/load.ts";
import { summarizeCatalogue } from "../catalogue/summary.ts";

function rootFromArgs(args: string[]): string {
  const index = args.indexOf("--root");
  if (index === -1) return process.cwd();
  const dir = args[index + 1];
  if (!dir) {
    console.error("--root needs a folder");
    process.exit(2);
  }
  return resolve(dir);
}

const root = rootFromArgs(process.argv.slice(2));

let catalogue: Catalogue;
try {
  catalogue = loadCatalogue(root);
} catch (error) {
  if (!(error instanceof ContentError)) throw error;
  console.error(`✗ ${error.message}`);
  process.exit(1);
}

const publicDir = join(root, "public");
const imageExists = (sitePath: string) => {
  let file: string;
  try {
    file = join(publicDir, decodeURIComponent(sitePath));
  } catch {
    return false;
  }
  return file.startsWith(publicDir) && existsSync(file) && statSync(file).isFile();
};

const summary = summarizeCatalogue(catalogue, imageExists);
const { counts } = summary;

/** Two columns, the labels padded to one width. */
function table(rows: [string, number][]): string {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, count]) => `  ${label.padEnd(width)}  ${String(count).padStart(3)}`).join("\n");
}

console.log(
  `✓ content/ is valid: ${counts.notes} notes, ${counts.writings} writings, ${counts.apps} apps, ${counts.jobs} jobs`,
);
console.log(`\nNotes per tag (${summary.notesPerTag.length} tags):`);
console.log(table(summary.notesPerTag.map(({ tag, count }) => [tag, count])));
console.log("\nNotes per year:");
console.log(table(summary.notesPerYear.map(({ year, count }) => [year, count])));
console.log(
  `\nNotes without a review: ${summary.withoutReview.count} (${summary.withoutReview.before2020} dated before 2020)`,
);
console.log(`Podcast episodes (notes with a podcast embed): ${summary.podcasts}`);
console.log(`Videos (notes with a video embed): ${summary.videos}`);

if (summary.broken.length === 0) {
  console.log("\nBroken references: none");
} else {
  console.log(`\n✗ Broken references (${summary.broken.length}):`);
  for (const { file, field, target, problem } of summary.broken) {
    const why =
      problem === "missing image" ? `no file public${target.replace(/[?#].*$/, "")}` : "no item has this path";
    console.log(`  ${file}: ${field} ${target} — ${why}`);
  }
  process.exit(1);
}
