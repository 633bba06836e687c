import { relatedIndex } from "../catalogue/related.ts";
import type { Note } from "../catalogue/schema.ts";
import { catalogue } from "./catalogue.server.ts";

export function bookLink({ slug, path, name, author, date, shelf, rating, photo }: Note) {
  return { slug, path, name, author, date, shelf, rating, photo };
}
export type BookLink = ReturnType<typeof bookLink>;

export function readingNow(): BookLink[] {
  return catalogue.shelves.reading.map(bookLink);
}

export function latestGoal(): GoalProgress | null {
  const year = Object.keys(catalogue.site.goal).sort().at(-1);
  return year === undefined ? null : goalOf(year);
}

export type GoalProgress = { year: string; books: number; done: number };

export function goalOf(year: string): GoalProgress | null {
  const books = catalogue.site.goal[year];
  if (books === undefined) return null;
  const done = catalogue.readNotes.filter((note) => note.date.startsWith(`${year}-`)).length;
  return { year, books, done };
}

// Made once, so each note page costs the same however many notes there are.
const related = relatedIndex(catalogue.listedNotes);

export function noteNeighbours(note: Note) {
  const { previous, next } = related.previousAndNext(note);
  return {
    related: related.relatedNotes(note).map(bookLink),
    previous: previous && bookLink(previous),
    next: next && bookLink(next),
  };
}
export type NoteNeighbours = ReturnType<typeof noteNeighbours>;
