import { parseContentDate } from "../../catalogue/dates.ts";
import { type ContentFile, isDraft, splitFrontMatter } from "../../catalogue/load.ts";
import { SHELVES, type Shelf } from "../../catalogue/schema.ts";

const NOTE_FILE = /^content\/notes\/([^/]+)\.md$/;

const textOf = (value: unknown) => (typeof value === "string" ? value : "");

export function siteNotes(files: readonly ContentFile[]) {
  return files
    .flatMap((file) => {
      const slug = NOTE_FILE.exec(file.path)?.[1];
      if (!slug) return [];
      const { data, body } = splitFrontMatter(file);
      const fields = (data ?? {}) as Record<string, unknown>;
      const shelf: Shelf = SHELVES.find((candidate) => candidate === fields.shelf) ?? "read";
      return [
        {
          slug,
          path: file.path,
          draft: isDraft(file),
          title: textOf(fields.name),
          author: textOf(fields.author),
          isbn: textOf(fields.isbn),
          shelf,
          date: parseContentDate(textOf(fields.date)) ?? "",
          rating: typeof fields.rating === "number" ? fields.rating : null,
          tags: Array.isArray(fields.tags) ? fields.tags.map(String) : [],
          review: body,
        },
      ];
    })
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

export type SiteNote = ReturnType<typeof siteNotes>[number];

const ESSAY_FILE = /^content\/write\/([^/]+)\.md$/;

export function siteEssays(files: readonly ContentFile[]): { slug: string; path: string; mediumLink: string }[] {
  return files.flatMap((file) => {
    const slug = ESSAY_FILE.exec(file.path)?.[1];
    if (!slug) return [];
    const fields = (splitFrontMatter(file).data ?? {}) as Record<string, unknown>;
    return [{ slug, path: file.path, mediumLink: textOf(fields.mediumLink) }];
  });
}
