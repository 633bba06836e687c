/**
 * The reading life as the loaders send it: small summaries of notes (never whole notes) for the
 * shelves, the books being read now, a year in books and the reading goal.
 */
import type { Note } from "../catalogue/schema.ts";
import { catalogue } from "./catalogue.server.ts";

/** Enough to show a book with its cover and link it. */
export function bookLink({ slug, path, name, author, date, shelf, rating, photo }: Note) {
  return { slug, path, name, author, date, shelf, rating, photo };
}
export type BookLink = ReturnType<typeof bookLink>;

/** The books on the reading shelf, the one started last first: /now and the home page show them. */
export function readingNow(): BookLink[] {
  return catalogue.shelves.reading.map(bookLink);
}

/** The latest year that has a goal in site.yaml, with the books read to the end that year. */
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
