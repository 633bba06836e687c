import { parseArgs } from "node:util";
import { noteRating, noteTags, SHELVES } from "./schema.ts";
import { slugify } from "./slug.ts";

export type NewNoteShelf = (typeof SHELVES)[number] | null;

export const USAGE = [
  "Usage:",
  '  npm run new -- note "The Title" --author "Name" [--tags "Tag1,Tag2"] [--rating 8.5] [--shelf reading|want|did-not-finish]',
  '  npm run new -- write "The Title"',
  "Options: --root <dir> works on another project folder (default: CONTENT_ROOT, else the current one).",
].join("\n");

const OPTIONS: Record<"note" | "write", readonly string[]> = {
  note: ["author", "tags", "rating", "shelf", "root"],
  write: ["root"],
};

const fail = (error: string) => ({ ok: false as const, error: `${error}\n\n${USAGE}` });

export function parseNewArgs(args: readonly string[]) {
  const [kind, ...rest] = args;
  if (kind !== "note" && kind !== "write") {
    return fail(kind ? `Unknown kind "${kind}": write "note" or "write".` : "Say what to create.");
  }
  // Not strict: the messages below name the kind, and a value may start with "-" (--rating -1 is out of range, not missing).
  const { values, positionals: positional } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: false,
    options: Object.fromEntries(OPTIONS[kind].map((name) => [name, { type: "string", multiple: true }])),
  });
  const options = new Map<string, string>();
  for (const [name, given] of Object.entries(values)) {
    if (!OPTIONS[kind].includes(name)) return fail(`A ${kind} has no option --${name}.`);
    const list = [given].flat();
    const value = list[0];
    if (typeof value !== "string" || value.startsWith("--")) return fail(`--${name} needs a value.`);
    if (list.length > 1) return fail(`--${name} is given twice.`);
    options.set(name, value);
  }
  const [titleArg, ...extraArgs] = positional;
  if (titleArg === undefined) return fail(`Give the title of the ${kind === "note" ? "book" : "writing"}.`);
  if (extraArgs.length > 0) {
    return fail(`Put the title in quotes: one title was expected, got ${positional.map((p) => `"${p}"`).join(" ")}.`);
  }
  const title = titleArg.trim();
  if (!slugify(title)) return fail(`The title "${title}" needs at least one letter or digit.`);
  const root = options.get("root") ?? null;
  if (kind === "write") return { ok: true, request: { kind, title, root } } as const;

  const author = options.get("author")?.trim();
  if (!author) return fail('A book note needs its author: --author "Name".');
  const tagsText = options.get("tags");
  const tags =
    tagsText === undefined ? null : [...new Set(tagsText.split(",").map((tag) => tag.trim()))].filter(Boolean);
  if (tags && !noteTags.min(1).safeParse(tags).success) {
    return fail(`A book note has 1 to 3 tags, separated by commas; got ${tags.length}.`);
  }
  const ratingText = options.get("rating");
  const rating = ratingText === undefined ? null : Number(ratingText);
  if (ratingText !== undefined && (ratingText.trim() === "" || !noteRating.safeParse(rating).success)) {
    return fail(`--rating must be a number from 0 to 10 with at most one decimal, not "${ratingText}".`);
  }
  const shelfText = options.get("shelf");
  const shelf = SHELVES.find((known) => known === shelfText) ?? null;
  if (shelfText !== undefined && shelf === null) {
    return fail(`--shelf is one of ${SHELVES.join(", ")}, not "${shelfText}" (leave it out for a book you have read).`);
  }
  if (rating !== null && (shelf === "reading" || shelf === "want")) {
    return fail(`A book on the ${shelf} shelf is not read yet: it takes no --rating.`);
  }
  return { ok: true, request: { kind, title, author, tags, rating, shelf, root } } as const;
}

export type NewRequest = Extract<ReturnType<typeof parseNewArgs>, { ok: true }>["request"];

export function chooseSlug(title: string, existing: ReadonlySet<string>): string {
  const base = slugify(title);
  if (!existing.has(base)) return base;
  let number = 2;
  while (existing.has(`${base}-${number}`)) number++;
  return `${base}-${number}`;
}

export function contentDateOf(day: Date): string {
  return `${day.getMonth() + 1}/${day.getDate()}/${String(day.getFullYear() % 100).padStart(2, "0")}`;
}

/** A YAML double-quoted string: JSON's string syntax is valid YAML. */
export const quote = (text: string) => JSON.stringify(text);

export const isDraftNote = (note: { tags: readonly string[] | null; rating: number | null; shelf?: NewNoteShelf }) =>
  note.shelf !== "reading" &&
  note.shelf !== "want" &&
  (note.tags === null || (note.rating === null && note.shelf !== "did-not-finish"));

const DATE_MEANING: Record<NonNullable<NewNoteShelf>, string> = {
  reading: "the day you started the book",
  want: "the day you added the book",
  "did-not-finish": "the day you stopped reading",
};

const PUBLISH_PROMPT = '# A draft is checked but not published: delete the line "draft: true" when the file is ready.';

// What the owner must still decide is a commented-out line, never a placeholder value that would be published.
export function noteFileText(
  note: Parameters<typeof isDraftNote>[0] & { title: string; author: string },
  date: string,
) {
  const draft = isDraftNote(note);
  const shelf = note.shelf ?? null;
  const unread = shelf === "reading" || shelf === "want";
  return [
    "---",
    ...(draft ? [PUBLISH_PROMPT, "draft: true"] : []),
    `name: ${quote(note.title)}`,
    `author: ${quote(note.author)}`,
    ...(shelf ? [`shelf: ${shelf}`] : []),
    `date: ${quote(date)}${shelf ? ` # ${DATE_MEANING[shelf]}` : ""}`,
    note.tags === null
      ? '# tags: ["Self-help"]  # 1 to 3 of the tags listed in content/site.yaml'
      : `tags: [${note.tags.map(quote).join(", ")}]`,
    ...(unread
      ? []
      : [
          note.rating === null
            ? "# rating: 8.5  # your rating, 0 to 10 with at most one decimal"
            : `rating: ${note.rating}`,
        ]),
    "time: 0 # reading time in minutes; 0 = unknown",
    "# Your notes on the book go below the closing --- line, in Markdown; they may stay empty.",
    "---",
    "",
  ].join("\n");
}

export function writingFileText(writing: { title: string }, date: string): string {
  return [
    "---",
    PUBLISH_PROMPT,
    "draft: true",
    `name: ${quote(writing.title)}`,
    `date: ${quote(date)}`,
    "time: 1 # reading time in minutes",
    "# The essay goes below the closing --- line, in Markdown.",
    "---",
    "",
  ].join("\n");
}

export const contentPath = (kind: NewRequest["kind"], slug: string) =>
  `content/${kind === "note" ? "notes" : "write"}/${slug}.md`;
