import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { MAX_CONTENT_FILE_BYTES } from "./limits.ts";
import { buildCatalogue, type Catalogue, ContentError, type ContentFile, isDraft } from "./load.ts";
import { orUndefined } from "./present.ts";
import { type BrokenReference, summarizeCatalogue } from "./summary.ts";

export { contentRoot } from "./content-root.ts";

function readBounded(file: string): string {
  if (statSync(file).size <= MAX_CONTENT_FILE_BYTES) return readFileSync(file, "utf8");
  const start = Buffer.alloc(MAX_CONTENT_FILE_BYTES + 1);
  const descriptor = openSync(file, "r");
  try {
    return start.toString("utf8", 0, readSync(descriptor, start, 0, start.length, 0));
  } finally {
    closeSync(descriptor);
  }
}

// Hidden files aside, the loader decides what each file is, so a file it would not read is reported.
export function readContentFiles(root: string): ContentFile[] {
  const contentDir = join(root, "content");
  return readdirSync(contentDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith("."))
    .map((entry) => {
      const absolute = join(entry.parentPath, entry.name);
      return { path: relative(root, absolute).split("\\").join("/"), text: readBounded(absolute) };
    })
    .filter((file) => file.path !== "content/README.md");
}

export const readPublishedFiles = (root: string) => readContentFiles(root).filter((file) => !isDraft(file));

export function imageExists(root: string, sitePath: string): boolean {
  const publicDir = join(root, "public");
  const file = orUndefined(() => join(publicDir, decodeURIComponent(sitePath)));
  return file?.startsWith(publicDir) === true && existsSync(file) && statSync(file).isFile();
}

export function brokenReferenceProblem({ target, problem }: BrokenReference): string {
  switch (problem) {
    case "missing image":
      return `names the image ${target}, but there is no file public${target.replace(/[?#].*$/, "")}`;
    case "remote image":
      return `names the remote image ${target}: save it under public/images/ and write its path (the site loads no image from other hosts)`;
    case "no such item":
      return `links to ${target}, but no published item has this path`;
  }
}

export function loadCatalogue(root: string, files: ContentFile[] = readContentFiles(root)): Catalogue {
  const catalogue = buildCatalogue(files);
  const [broken] = summarizeCatalogue(catalogue, (sitePath) => imageExists(root, sitePath)).broken;
  if (broken) throw new ContentError(broken.file, broken.field, brokenReferenceProblem(broken));
  return catalogue;
}
