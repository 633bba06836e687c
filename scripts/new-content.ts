import { join, resolve } from "node:path";
import { contentRoot, readContentFiles } from "../catalogue/disk.ts";
import { buildCatalogue, ContentError, type ContentFile, orContentError } from "../catalogue/load.ts";
import { writeNewFile } from "../catalogue/new-file.ts";
import {
  chooseSlug,
  contentDateOf,
  contentPath,
  isDraftNote,
  noteFileText,
  parseNewArgs,
  writingFileText,
} from "../catalogue/new-item.ts";
import { isSlugOf } from "../catalogue/slug.ts";

function stop(message: string): never {
  console.error(message);
  process.exit(1);
}

const parsed = parseNewArgs(process.argv.slice(2));
if (!parsed.ok) stop(parsed.error);
const { request } = parsed;
const root = request.root ? resolve(request.root) : contentRoot(process.cwd());

function validOrStop(files: ContentFile[], problem: string) {
  const built = orContentError(() => buildCatalogue(files));
  if (built instanceof ContentError) stop(`${problem}\n${built.message}`);
}

const files = readContentFiles(root);
validOrStop(files, "The existing content has a problem; fix it first (npm run check:content):");

const today = contentDateOf(new Date());
// Drafts count too: a draft note already holds its slug.
const noteSlugs = files.flatMap((file) => /^content\/notes\/(.+)\.md$/.exec(file.path)?.[1] ?? []);
const path = contentPath(request.kind, chooseSlug(request.title, new Set(request.kind === "note" ? noteSlugs : [])));
const text = request.kind === "note" ? noteFileText(request, today) : writingFileText(request, today);
const earlierReadings = request.kind === "note" ? noteSlugs.filter((slug) => isSlugOf(slug, request.title)).sort() : [];
if (request.kind === "write" && files.some((file) => file.path === path)) {
  stop(`${path} already exists: a writing with this title is already there. Choose another title.`);
}

validOrStop([...files, { path, text }], "Not written: the new file would not be valid.");

if (!writeNewFile(join(root, path), text)) stop(`${path} already exists; nothing was written.`);

const draft = request.kind === "write" || isDraftNote(request);
console.log(`Created ${path}${draft ? " as a draft" : ""}`);
if (earlierReadings.length > 0) {
  console.log(
    `This is a re-read: ${earlierReadings.map((slug) => contentPath("note", slug)).join(", ")} already hold${earlierReadings.length > 1 ? "" : "s"} "${request.title}".`,
  );
}
if (request.kind === "note" && draft) {
  const missing = [request.tags === null && "tags", request.rating === null && "rating"].filter(Boolean).join(" and ");
  console.log(`Set the ${missing} in the file, then delete the line "draft: true" to publish it.`);
} else if (request.kind === "write") {
  console.log('Write the essay and set its reading time, then delete the line "draft: true" to publish it.');
}
