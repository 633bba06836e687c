import { relatedIndex } from "../catalogue/related.ts";
import type { Note } from "../catalogue/schema.ts";
import { catalogue } from "./catalogue.server.ts";
import { bookLink } from "./reading.server.ts";

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
