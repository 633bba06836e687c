import { currentGoal, goalOfYear } from "../catalogue/reading-life.ts";
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

/** The goal of the year the page is made in: a prerendered page, the build's. */
export const goalThisYear = () => currentGoal(catalogue.site.goal, catalogue.notes, new Date());

export const goalOf = (year: string) => goalOfYear(catalogue.site.goal, catalogue.notes, year);

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
