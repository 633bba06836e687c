import { parseContentDate } from "../../catalogue/dates.ts";
import { type ContentFile, isDraft, splitFrontMatter } from "../../catalogue/load.ts";
import { SHELVES, seriesSchema } from "../../catalogue/schema.ts";

const textOf = (value: unknown) => (typeof value === "string" ? value : "");

/** Read leniently, drafts included: only to recognise what the site already holds. */
function itemsIn(files: readonly ContentFile[], folder: string) {
  return files.flatMap((file) => {
    const slug = new RegExp(`^content/${folder}/([^/]+)\\.md$`).exec(file.path)?.[1];
    if (!slug) return [];
    const { data, body } = splitFrontMatter(file);
    return [{ file, slug, body, fields: (data ?? {}) as Record<string, unknown> }];
  });
}

export function siteNotes(files: readonly ContentFile[]) {
  return itemsIn(files, "notes")
    .map(({ file, slug, body, fields }) => ({
      slug,
      path: file.path,
      draft: isDraft(file),
      title: textOf(fields.name),
      author: textOf(fields.author),
      isbn: textOf(fields.isbn),
      series: seriesSchema.safeParse(fields.series).data ?? null,
      shelf: SHELVES.find((shelf) => shelf === fields.shelf) ?? ("read" as const),
      date: parseContentDate(textOf(fields.date)) ?? "",
      rating: typeof fields.rating === "number" ? fields.rating : null,
      tags: Array.isArray(fields.tags) ? fields.tags.map(String) : [],
      review: body,
    }))
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

export type SiteNote = ReturnType<typeof siteNotes>[number];

export const siteEssays = (files: readonly ContentFile[]) =>
  itemsIn(files, "write").map(({ file, slug, fields }) => ({
    slug,
    path: file.path,
    mediumLink: textOf(fields.mediumLink),
  }));

export type SiteEssay = ReturnType<typeof siteEssays>[number];
