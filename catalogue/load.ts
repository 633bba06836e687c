import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { coverPath } from "./cover-path.ts";
import { type DerivedBody, deriveBody } from "./derive.ts";
import { MAX_CONTENT_FILE_BYTES, MAX_SLUG_BYTES, sizeText } from "./limits.ts";
import { nestingProblem } from "./nesting.ts";
import { present } from "./present.ts";
import { deriveQuotes } from "./quotes.ts";
import { mentions, readingHistories } from "./reading-life.ts";
import {
  type App,
  appSchema,
  draftNoteSchema,
  type Located,
  type Note,
  noteSchema,
  type Page,
  pageSchema,
  type ReadNote,
  SHELVES,
  type Shelf,
  siteSchema,
  type UpdateIssue,
  updateSchema,
  type Work,
  type Writing,
  workSchema,
  writingSchema,
} from "./schema.ts";
import { isSlugOf, slugify } from "./slug.ts";
import { sortItems } from "./sort.ts";
import { undeclaredTagProblem } from "./tags.ts";

export type ContentFile = { path: string; text: string };

export type Catalogue = ReturnType<typeof buildCatalogue>;
export type QuoteOfNote = Catalogue["quotes"][number];

export const RESERVED_UPDATE_SLUGS = ["confirm", "unsubscribe"];

export class ContentError extends Error {
  constructor(
    readonly file: string,
    readonly field: string | null,
    readonly problem: string,
  ) {
    super(`${file}: ${field ? `field "${field}" ` : ""}${problem}`);
    this.name = "ContentError";
  }
}

/** What `read` returns, or the owner's mistake it met; any other error goes on. */
export function orContentError<T>(read: () => T): T | ContentError {
  try {
    return read();
  } catch (error) {
    if (error instanceof ContentError) return error;
    throw error;
  }
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

function yamlOf(file: string, text: string, invalid: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    throw new ContentError(file, null, `${invalid}: ${(error as Error).message}`);
  }
}

export function splitFrontMatter(file: ContentFile): { data: unknown; body: string } {
  const match = FRONT_MATTER.exec(file.text);
  if (!match) throw new ContentError(file.path, null, "must start with front matter between --- lines");
  const [, frontMatter, body] = match;
  const yaml = present(frontMatter, "FRONT_MATTER to capture the front matter");
  const data = yamlOf(file.path, yaml, "has invalid YAML front matter");
  return { data: data ?? {}, body: present(body, "FRONT_MATTER to capture the body").trim() };
}

// A union reports only "Invalid input": show the problem of the option the value was meant for.
function explain(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  // A record's bad key (a goal's year) says only "Invalid key in record"; its own check says why.
  if (issue.code === "invalid_key") {
    const inner = issue.issues[0];
    return inner ? { ...inner, path: issue.path } : issue;
  }
  if (issue.code !== "invalid_union") return issue;
  const inner = issue.errors.flat().map((option) => explain({ ...option, path: [...issue.path, ...option.path] }));
  return inner.find((option) => option.code !== "invalid_value") ?? issue;
}

function validate<S extends z.ZodType>(schema: S, data: unknown, file: string): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  // An unknown field first: a misspelt required field then reads as the typo, not as "missing".
  const { issues } = result.error;
  const issue = explain(
    issues.find((candidate) => candidate.code === "unrecognized_keys") ??
      present(issues[0], "a failed parse to report an issue"),
  );
  if (issue.code === "unrecognized_keys") {
    throw new ContentError(file, issue.keys.join(", "), "is not a known field");
  }
  const field = issue.path.join(".") || null;
  const missing = issue.code === "invalid_type" && issue.message.includes("received undefined");
  throw new ContentError(file, field, missing ? "is required but missing" : issue.message);
}

const MARKDOWN_FOLDERS = ["apps", "notes", "pages", "updates", "work", "write"];
const TOP_LEVEL_FILES = ["site.yaml", "README.md"];

// A file the loader would not read is a mistake the owner must hear about, not one to skip quietly.
function fileNameProblem(path: string): string | undefined {
  const [, folder, name = ""] = /^content\/(?:([^/]+)\/)?(.+)$/.exec(path) ?? [];
  const folders = MARKDOWN_FOLDERS.join(", ");
  if (folder === undefined) {
    return TOP_LEVEL_FILES.includes(name)
      ? undefined
      : `is not a file the site reads: content/ holds site.yaml and the folders ${folders}`;
  }
  if (!MARKDOWN_FOLDERS.includes(folder)) {
    return `is in content/${folder}/, a folder the site does not read: the folders are ${folders}`;
  }
  if (name.endsWith(".md") && !name.includes("/")) return undefined;
  const extension = /\.[^./]+$/.exec(name)?.[0];
  const what = name.includes("/")
    ? "is in a subfolder"
    : extension
      ? `has the unknown extension "${extension}"`
      : "has no extension";
  return `${what}: content/${folder}/ holds Markdown files named <slug>.md`;
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;

function sizeProblem(file: ContentFile): string | undefined {
  const name = file.path.replace(/^.*\//, "").replace(/\.[^.]*$/, "");
  if (byteLength(name) > MAX_SLUG_BYTES) {
    return `has a file name of ${byteLength(name)} bytes before its extension: at most ${MAX_SLUG_BYTES} fit every filesystem`;
  }
  // A string's UTF-8 bytes are at least its UTF-16 length: the count is needed only below the limit.
  if (file.text.length > MAX_CONTENT_FILE_BYTES || byteLength(file.text) > MAX_CONTENT_FILE_BYTES) {
    return `is larger than ${sizeText(MAX_CONTENT_FILE_BYTES)}, the most a content file may hold: shorten it or split it`;
  }
  return undefined;
}

function takeDraftFlag(data: unknown, file: string): { draft: boolean; fields: unknown } {
  if (typeof data !== "object" || data === null || !("draft" in data)) return { draft: false, fields: data };
  const { draft, ...fields } = data as Record<string, unknown>;
  if (typeof draft !== "boolean") throw new ContentError(file, "draft", "must be true or false");
  return { draft, fields };
}

// Read without a YAML parse: a build asks it of every file twice, and the loader checks the flag anyway.
const DRAFT_LINE = /^draft[ \t]*:[ \t]*(?:true|True|TRUE)[ \t]*(?:#.*)?$/m;

export const isDraft = (file: ContentFile) => DRAFT_LINE.test(FRONT_MATTER.exec(file.text)?.[1] ?? "");

type ReadOptions<S extends z.ZodType> = {
  slugFromTitle?: boolean;
  declaredTags?: readonly string[];
  /** Drafts are checked, then left out; a folder without this option keeps them. */
  drafts?: { draftSchema?: z.ZodType<z.output<S>> };
  reserved?: readonly string[];
};

type Read<S extends z.ZodType, Category extends string> = z.output<S> & Located<Category>;

function readItems<S extends z.ZodType, Category extends string>(
  files: ContentFile[],
  folder: string,
  category: Category,
  schema: S,
  { slugFromTitle, declaredTags, drafts, reserved = [] }: ReadOptions<S>,
): Read<S, Category>[] {
  const seen = new Map<string, string>();
  return files
    .filter((file) => file.path.startsWith(`content/${folder}/`) && file.path.endsWith(".md"))
    .sort((a, b) => a.path.localeCompare(b.path))
    .flatMap((file) => {
      const refuse = (field: string | null, problem: string) => {
        throw new ContentError(file.path, field, problem);
      };
      const slug = file.path.replace(/^.*\//, "").replace(/\.md$/, "");
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) {
        refuse(null, "has a file name that is not a slug (lowercase letters, digits, hyphens)");
      }
      const other = seen.get(slug);
      if (other) refuse(null, `has the same slug "${slug}" as ${other}`);
      seen.set(slug, file.path);
      const { data, body } = splitFrontMatter(file);
      const { draft, fields: input } = drafts ? takeDraftFlag(data, file.path) : { draft: false, fields: data };
      const fields = validate(draft ? (drafts?.draftSchema ?? schema) : schema, input, file.path);
      const name = (fields as { name?: string }).name ?? "";
      if (slugFromTitle && !isSlugOf(slug, name)) {
        refuse("name", `does not match the file name: "${name}" needs ${slugify(name)}.md (or -2, -3 … for a re-read)`);
      }
      if (declaredTags) {
        for (const tag of (fields as { tags: string[] }).tags) {
          const problem = undeclaredTagProblem(tag, declaredTags);
          if (problem) refuse("tags", problem);
        }
      }
      if (draft) return [];
      const path = `/${folder}/${slug}`;
      if (reserved.includes(slug))
        refuse(null, `cannot be named "${slug}": ${path} is a page of the site (name the file ${slug}-2.md)`);
      return [{ ...(fields as object), category, slug, path, ...derivedBodyOf(file, body) } as Read<S, Category>];
    });
}

const STRAY_SPOILER_MARK =
  "has a [spoiler] mark never closed or a [/spoiler] never opened: a spoiler is written [spoiler]…[/spoiler]";

function derivedBodyOf(file: ContentFile, body: string): DerivedBody {
  const tooDeep = nestingProblem(body);
  if (tooDeep) throw new ContentError(file.path, null, tooDeep);
  try {
    const derived = deriveBody(body);
    // Left in the text, a spoiler's words would reach descriptions, search and feeds in clear.
    if (/\[\/?spoiler\]/i.test(derived.text)) throw new ContentError(file.path, null, STRAY_SPOILER_MARK);
    return derived;
  } catch (error) {
    // Emphasis nests without a line or a tag to count: thousands of levels still overflow marked.
    if (error instanceof RangeError) throw new ContentError(file.path, null, "nests emphasis too deeply to be read");
    throw error;
  }
}

function findFile(files: ContentFile[], path: string): ContentFile {
  const file = files.find((candidate) => candidate.path === path);
  if (!file) throw new ContentError(path, null, "is missing");
  return file;
}

function readPage(files: ContentFile[], slug: string): Page {
  const file = findFile(files, `content/pages/${slug}.md`);
  const { data, body } = splitFrontMatter(file);
  return { ...validate(pageSchema, data, file.path), slug, ...derivedBodyOf(file, body) };
}

export function buildCatalogue(files: ContentFile[]) {
  for (const file of files) {
    const problem = fileNameProblem(file.path) ?? sizeProblem(file);
    if (problem) throw new ContentError(file.path, null, problem);
  }
  const siteFile = findFile(files, "content/site.yaml");
  const site = validate(siteSchema, yamlOf(siteFile.path, siteFile.text, "is not valid YAML"), siteFile.path);

  const read = { declaredTags: site.tags, drafts: {} };
  const work: Work[] = readItems(files, "work", "Work", workSchema, read);
  const apps: App[] = readItems(files, "apps", "apps", appSchema, read);
  const writings: Writing[] = readItems(files, "write", "write", writingSchema, { ...read, slugFromTitle: true });
  const noteOptions = { ...read, slugFromTitle: true, drafts: { draftSchema: draftNoteSchema }, reserved: ["shelves"] };
  const notes = readItems(files, "notes", "book", noteSchema, noteOptions).map((note) => ({
    ...note,
    photo: note.photo || coverPath(note.slug),
    ...deriveQuotes(note.markdown, note.slug),
  }));
  const updates: UpdateIssue[] = readItems(files, "updates", "updates", updateSchema, {
    reserved: RESERVED_UPDATE_SLUGS,
  }).sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));

  const histories = readingHistories(notes);
  const mentioned = mentions(writings);
  const notesByDate: Note[] = sortItems(
    notes.map((note) => ({
      ...note,
      readings: histories.get(note.slug) ?? [],
      mentionedIn: mentioned.get(note.slug) ?? [],
    })),
    "date",
  );
  const shelves = Object.fromEntries(
    (["read", ...SHELVES] as const).map((shelf) => [shelf, notesByDate.filter((note) => note.shelf === shelf)]),
  ) as Record<Shelf, Note[]>;
  const readNotes = notesByDate.filter((note): note is ReadNote => note.shelf === "read");
  const listedNotes: Note[] = notesByDate.filter((note) => note.shelf === "read" || note.shelf === "did-not-finish");

  const withEmbed = (embed: "youtubeEmbed" | "podcastEmbed") => listedNotes.filter((note) => note[embed]);
  const byStartDate = <T extends { startDate: string }>(items: T[]) =>
    items.sort((a, b) => b.startDate.localeCompare(a.startDate));

  return {
    site,
    pages: { now: readPage(files, "now"), about: readPage(files, "about") },
    work: byStartDate(work),
    apps: byStartDate(apps),
    notes: notesByDate,
    quotes: notesByDate.flatMap(({ slug, path, name, author, date, photo, quotes }) =>
      quotes.map((quote) => ({ ...quote, note: { slug, path, name, author, date, photo } })),
    ),
    listedNotes,
    readNotes,
    shelves,
    writings: sortItems(writings, "date"),
    all: [...work, ...apps, ...notesByDate, ...writings],
    tags: [...new Set(listedNotes.flatMap((note) => note.tags))].sort((a, b) => a.localeCompare(b)),
    withVideo: sortItems(withEmbed("youtubeEmbed"), "releaseDate"),
    withPodcast: sortItems(withEmbed("podcastEmbed"), "releaseDate"),
    updates: updates.filter((issue) => !issue.draft),
    updateDrafts: updates.filter((issue) => issue.draft),
  };
}
