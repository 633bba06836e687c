/**
 * What a note page shows around its note: other readings of the same book, related
 * notes and the notes read before and after it, as small summaries (never whole notes).
 */
import { previousAndNext, relatedNotes } from "../catalogue/related.ts";
import type { Note } from "../catalogue/schema.ts";
import { catalogue } from "./catalogue.server.ts";

/** Enough to show and link a note: no review, no links, no embeds. */
function noteLink({ path, name, author, rating, shelf, date, photo }: Note) {
  return { path, name, author, rating, shelf, date, photo };
}
export type NoteLink = ReturnType<typeof noteLink>;

export function noteNeighbours(note: Note) {
  const { previous, next } = previousAndNext(note, catalogue.listedNotes);
  return {
    related: relatedNotes(note, catalogue.listedNotes).map(noteLink),
    previous: previous && noteLink(previous),
    next: next && noteLink(next),
  };
}
export type NoteNeighbours = ReturnType<typeof noteNeighbours>;
