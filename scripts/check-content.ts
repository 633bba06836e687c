import { resolve } from "node:path";
import { brokenReferenceProblem, contentRoot, imageExists, readContentFiles } from "../catalogue/disk.ts";
import { buildCatalogue, type Catalogue, ContentError } from "../catalogue/load.ts";
import { summarizeCatalogue } from "../catalogue/summary.ts";

function rootFromArgs(args: string[]): string {
  const index = args.indexOf("--root");
  if (index === -1) return contentRoot(process.cwd());
  const dir = args[index + 1];
  if (!dir) {
    console.error("--root needs a folder");
    process.exit(2);
  }
  return resolve(dir);
}

const args = process.argv.slice(2);
const root = rootFromArgs(args);

let catalogue: Catalogue;
try {
  catalogue = buildCatalogue(readContentFiles(root));
} catch (error) {
  if (!(error instanceof ContentError)) throw error;
  console.error(`✗ Content error: ${error.message}`);
  process.exit(1);
}

const summary = summarizeCatalogue(catalogue, (sitePath) => imageExists(root, sitePath));
const { counts } = summary;

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
console.log(
  `Shelves: ${summary.shelves.reading} reading now, ${summary.shelves.want} want to read, ${summary.shelves.didNotFinish} did not finish (counted in the notes above; the others are not)`,
);
console.log(`Quotes: ${summary.quotes}`);

let failed = false;
if (summary.broken.length === 0) {
  console.log("\nBroken references: none");
} else {
  failed = true;
  console.log(`\n✗ Broken references (${summary.broken.length}), each stops the build:`);
  for (const broken of summary.broken) {
    console.log(`  ${broken.file}: field "${broken.field}" ${brokenReferenceProblem(broken)}`);
  }
}
process.exit(failed ? 1 : 0);
