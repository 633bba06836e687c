/**
 * The files an import writes, in the form `npm run new` writes them (catalogue/new-item.ts): the
 * same field order, quoting and comments, plus what an import knows besides — the shelf, the
 * cover, the ISBN, the review or the essay.
 */
import { formatContentDate } from "../../catalogue/dates.ts";
import { isDraftNote, noteFileText } from "../../catalogue/new-item.ts";
import type { Shelf } from "../../catalogue/schema.ts";

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

/** A read note needs its tags and rating, a book given up its tags; reading and want notes neither. */
export const needsRatingAndTags = (shelf: Shelf) => shelf === "read" || shelf === "did-not-finish";

const requestOf = (note: NoteToWrite) => ({
  title: note.title,
  author: note.author,
  tags: note.tags && note.tags.length > 0 ? note.tags : null,
  rating: note.rating,
  shelf: note.shelf === "read" ? null : note.shelf,
});

/** Whether the note is written as a draft, as `npm run new` decides it: something its shelf needs is missing. */
export const isDraft = (note: NoteToWrite) => isDraftNote(requestOf(note));

/** The front matter `npm run new` writes, with the cover, the ISBN and the review an import knows besides. */
export function noteText(note: NoteToWrite): string {
  const front = noteFileText(requestOf(note), formatContentDate(note.date));
  const extra = [
    ...(note.photo ? [`photo: ${quote(note.photo)}`] : []),
    ...(note.isbn ? [`isbn: ${quote(note.isbn)}`] : []),
  ].join("\n");
  // The extra fields go after the others, before the closing comment and --- line.
  const closing = front.search(/^# [^\n]*\n---\n$|^---\n$/m);
  const text = extra ? `${front.slice(0, closing)}${extra}\n${front.slice(closing)}` : front;
  return note.review ? `${text}\n${note.review}\n` : text;
}

export type EssayToWrite = { title: string; date: string; minutes: number; mediumLink: string; body: string };

/** An essay brought from the blog: published, as it was there. */
export function essayText(essay: EssayToWrite): string {
  return [
    "---",
    `name: ${quote(essay.title)}`,
    `date: ${quote(formatContentDate(essay.date))}`,
    `time: ${essay.minutes} # reading time in minutes`,
    ...(essay.mediumLink ? [`mediumLink: ${quote(essay.mediumLink)}`] : []),
    "---",
    "",
    essay.body,
    "",
  ].join("\n");
}
