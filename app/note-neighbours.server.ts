/**
 * What a note page shows around its note: related notes and the notes read before and after it,
 * as small summaries (never whole notes).
 */
import { relatedIndex } from "../catalogue/related.ts";
import type { Note } from "../catalogue/schema.ts";
import { catalogue } from "./catalogue.server.ts";

/** Enough to show and link a note: no review, no links, no embeds. */
function noteLink({ path, name, author, rating, shelf, date, photo }: Note) {
  return { path, name, author, rating, shelf, date, photo };
}
export type NoteLink = ReturnType<typeof noteLink>;

/** Made once with the catalogue: each note page then costs the same however many notes there are. */
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
