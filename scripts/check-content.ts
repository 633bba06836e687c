import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { brokenReferenceProblem, contentRoot, imageExists, readContentFiles } from "../catalogue/disk.ts";
import { buildCatalogue, ContentError, orContentError } from "../catalogue/load.ts";
import { summarizeCatalogue } from "../catalogue/summary.ts";

let root: string;
try {
  const { values } = parseArgs({ options: { root: { type: "string" } } });
  root = values.root ? resolve(values.root) : contentRoot(process.cwd());
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const catalogue = orContentError(() => buildCatalogue(readContentFiles(root)));
if (catalogue instanceof ContentError) {
  console.error(`✗ Content error: ${catalogue.message}`);
  process.exit(1);
}

const summary = summarizeCatalogue(catalogue, (sitePath) => imageExists(root, sitePath));
const { counts, shelves, withoutReview, broken } = summary;

function table(rows: [string, number][]): string {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, count]) => `  ${label.padEnd(width)}  ${String(count).padStart(3)}`).join("\n");
}

console.log(`✓ content/ is valid: ${counts.notes} notes, ${counts.writings} writings, ${counts.apps} apps, ${counts.jobs} jobs

Notes per tag (${summary.notesPerTag.length} tags):
${table(summary.notesPerTag.map(({ tag, count }) => [tag, count]))}

Notes per year:
${table(summary.notesPerYear.map(({ year, count }) => [year, count]))}

Notes without a review: ${withoutReview.count} (${withoutReview.before2020} dated before 2020)
Podcast episodes (notes with a podcast embed): ${summary.podcasts}
Videos (notes with a video embed): ${summary.videos}
Shelves: ${shelves.reading} reading now, ${shelves.want} want to read, ${shelves.didNotFinish} did not finish (counted in the notes above; the others are not)
Quotes: ${summary.quotes}
`);
if (broken.length === 0) console.log("Broken references: none");
else {
  console.log(`✗ Broken references (${broken.length}), each stops the build:`);
  for (const reference of broken) {
    console.log(`  ${reference.file}: field "${reference.field}" ${brokenReferenceProblem(reference)}`);
  }
}
process.exit(broken.length === 0 ? 0 : 1);
