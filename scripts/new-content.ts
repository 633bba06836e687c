/**
 * `npm run new -- note "The Title" --author "Name" --tags "A,B"` and `npm run new -- write "Title"`:
 * writes a new content file with valid front matter. The file is checked with the real loader,
 * together with all the existing content, before it is written; nothing is ever overwritten.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readContentFiles } from "../catalogue/disk.ts";
import { buildCatalogue, type Catalogue, ContentError } from "../catalogue/load.ts";
import {
  chooseSlug,
  contentPath,
  noteFileText,
  parseNewArgs,
  specDateOf,
  writingFileText,
} from "../catalogue/new-item.ts";

function stop(message: string): never {
  console.error(message);
  process.exit(1);
}

const parsed = parseNewArgs(process.argv.slice(2));
if (!parsed.ok) stop(parsed.error);
const { request } = parsed;
const root = resolve(request.root ?? process.cwd());

const files = readContentFiles(root);
let catalogue: Catalogue;
try {
  catalogue = buildCatalogue(files);
} catch (error) {
  if (!(error instanceof ContentError)) throw error;
  stop(`The existing content has a problem; fix it first (npm run check:content):\n${error.message}`);
}

const today = specDateOf(new Date());
let path: string;
let text: string;
if (request.kind === "note") {
  path = contentPath("note", chooseSlug(request.title, new Set(catalogue.books.map((note) => note.slug))));
  text = noteFileText(request, today);
} else {
  path = contentPath("write", chooseSlug(request.title, new Set()));
  if (catalogue.writings.some((writing) => contentPath("write", writing.slug) === path)) {
    stop(`${path} already exists: a writing with this title is already there. Choose another title.`);
  }
  text = writingFileText(request, today);
}

try {
  buildCatalogue([...files, { path, text }]);
} catch (error) {
  if (!(error instanceof ContentError)) throw error;
  stop(`Not written: the new file would not be valid.\n${error.message}`);
}

try {
  writeFileSync(join(root, path), text, { flag: "wx" });
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === "EEXIST") stop(`${path} already exists; nothing was written.`);
  throw error;
}

console.log(`Created ${path}`);
if (request.kind === "note") {
  const newTags = request.tags.filter((tag) => !catalogue.tags.includes(tag));
  if (newTags.length > 0) {
    console.log(
      `New tag${newTags.length > 1 ? "s" : ""} (no other note uses it): ${newTags.join(", ")}. Check the spelling.`,
    );
  }
  if (request.rating === null) console.log("Set the rating in the file; it is 0 for now.");
} else {
  console.log("Replace the placeholder paragraph with the essay and set the reading time.");
}
