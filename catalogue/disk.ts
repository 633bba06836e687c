/** Reads the content folder from disk, for the build, the owner's scripts and the tests. */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { buildCatalogue, type Catalogue, type ContentFile } from "./load.ts";

export function readContentFiles(root: string): ContentFile[] {
  const contentDir = join(root, "content");
  return readdirSync(contentDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(md|yaml)$/.test(entry.name) && entry.name !== "README.md")
    .map((entry) => {
      const absolute = join(entry.parentPath, entry.name);
      return { path: relative(root, absolute).split("\\").join("/"), text: readFileSync(absolute, "utf8") };
    });
}

export function loadCatalogue(root: string): Catalogue {
  return buildCatalogue(readContentFiles(root));
}
