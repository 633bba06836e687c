import { formatContentDate } from "../../catalogue/dates.ts";
import { isDraftNote, noteFileText, quote } from "../../catalogue/new-item.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import type { Reading } from "./book.ts";
import { type MediumPost, readingMinutes } from "./medium.ts";

export type NoteToWrite = Omit<Reading, "line" | "labels"> & { tags: readonly string[] | null; photo: string };

export const needsRatingAndTags = (shelf: Shelf) => shelf === "read" || shelf === "did-not-finish";

const requestOf = (note: NoteToWrite) => ({
  title: note.title,
  author: note.author,
  tags: note.tags && note.tags.length > 0 ? note.tags : null,
  rating: note.rating,
  shelf: note.shelf === "read" ? null : note.shelf,
});

export const isDraft = (note: NoteToWrite) => isDraftNote(requestOf(note));

export function noteText(note: NoteToWrite): string {
  const front = noteFileText(requestOf(note), formatContentDate(note.date));
  const { series } = note;
  const extra = [
    note.photo && `photo: ${quote(note.photo)}`,
    note.isbn && `isbn: ${quote(note.isbn)}`,
    series &&
      `series: { name: ${quote(series.name)}${series.number === undefined ? "" : `, number: ${JSON.stringify(series.number)}`} }`,
  ]
    .filter(Boolean)
    .join("\n");
  // The extra fields go after the others, before the closing comment and --- line.
  const closing = front.search(/^# [^\n]*\n---\n$|^---\n$/m);
  const text = extra ? `${front.slice(0, closing)}${extra}\n${front.slice(closing)}` : front;
  return note.review ? `${text}\n${note.review}\n` : text;
}

export function essayText(post: MediumPost): string {
  return [
    "---",
    `name: ${quote(post.title)}`,
    `date: ${quote(formatContentDate(post.date))}`,
    `time: ${readingMinutes(post.words)} # reading time in minutes`,
    ...(post.url ? [`mediumLink: ${quote(post.url)}`] : []),
    "---",
    "",
    post.markdown,
    "",
  ].join("\n");
}
