/**
 * The files an import writes, in the form `npm run new` writes them (catalogue/new-item.ts): the
 * same field order, quoting and comments, plus what an import knows besides — the shelf, the
 * cover, the ISBN, the review or the essay.
 */
import { formatSpecDate } from "../../catalogue/dates.ts";
import type { Shelf } from "./book.ts";

/** A YAML double-quoted string: JSON's string syntax is valid YAML. */
const quote = (text: string) => JSON.stringify(text);

export type NoteToWrite = {
  title: string;
  author: string;
  /** ISO day. */
  date: string;
  shelf: Shelf;
  /** null: a draft still to be tagged. */
  tags: readonly string[] | null;
  /** null: none (reading, want) or a draft still to be rated. */
  rating: number | null;
  isbn: string;
  /** Site path of the cover, or "" for the drawn one. */
  photo: string;
  review: string;
};

const PUBLISH_PROMPT = '# A draft is checked but not published: delete the line "draft: true" when the file is ready.';

/**
 * A read note needs its tags and rating; one that lacks either is written as a draft with the
 * prompts `npm run new` writes. Reading and want notes need neither.
 */
export const needsRatingAndTags = (shelf: Shelf) => shelf === "read" || shelf === "did-not-finish";
export const isDraft = (note: Pick<NoteToWrite, "shelf" | "tags" | "rating">) =>
  note.tags === null || (note.shelf === "read" && note.rating === null);

export function noteText(note: NoteToWrite): string {
  const draft = isDraft(note);
  const lines = [
    "---",
    ...(draft ? [PUBLISH_PROMPT, "draft: true"] : []),
    `name: ${quote(note.title)}`,
    `author: ${quote(note.author)}`,
    `date: ${quote(formatSpecDate(note.date))}`,
    ...(note.shelf === "read" ? [] : [`shelf: ${note.shelf}`]),
  ];
  if (note.tags === null) lines.push('# tags: ["Self-help"]  # 1 to 3 of the tags listed in content/site.yaml');
  else if (note.tags.length > 0) lines.push(`tags: [${note.tags.map(quote).join(", ")}]`);
  if (note.rating !== null) lines.push(`rating: ${note.rating}`);
  else if (note.shelf === "read") lines.push("# rating: 8.5  # your rating, 0 to 10 with at most one decimal");
  lines.push("time: 0 # reading time in minutes; 0 = unknown");
  if (note.photo) lines.push(`photo: ${quote(note.photo)}`);
  if (note.isbn) lines.push(`isbn: ${quote(note.isbn)}`);
  lines.push("# Your notes on the book go below the closing --- line, in Markdown; they may stay empty.", "---", "");
  return note.review ? `${lines.join("\n")}\n${note.review}\n` : lines.join("\n");
}

export type EssayToWrite = { title: string; date: string; minutes: number; mediumLink: string; body: string };

/** An essay brought from the blog: published, as it was there. */
export function essayText(essay: EssayToWrite): string {
  return [
    "---",
    `name: ${quote(essay.title)}`,
    `date: ${quote(formatSpecDate(essay.date))}`,
    `time: ${essay.minutes} # reading time in minutes`,
    ...(essay.mediumLink ? [`mediumLink: ${quote(essay.mediumLink)}`] : []),
    "---",
    "",
    essay.body,
    "",
  ].join("\n");
}
