import { relatedIndex } from "../catalogue/related.ts";
import type { Note } from "../catalogue/schema.ts";
import { catalogue } from "./catalogue.server.ts";

function noteLink({ path, name, author, rating, shelf, date, photo }: Note) {
  return { path, name, author, rating, shelf, date, photo };
}
export type NoteLink = ReturnType<typeof noteLink>;

// Made once, so each note page costs the same however many notes there are.
const related = relatedIndex(catalogue.listedNotes);

export function noteNeighbours(note: Note) {
  const { previous, next } = related.previousAndNext(note);
  return {
    related: related.relatedNotes(note).map(noteLink),
    previous: previous && noteLink(previous),
    next: next && noteLink(next),
  };
}
export type NoteNeighbours = ReturnType<typeof noteNeighbours>;
