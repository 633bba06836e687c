/**
 * What a note page shows besides the note: related notes, and the notes read just
 * before and just after it (its other readings are catalogue/reading-life.ts's). Pure; the orders are those of sort.ts.
 */
import type { Note } from "./schema.ts";
import { comparators, isSameText } from "./sort.ts";

export type RelatableNote = Pick<Note, "slug" | "name" | "author" | "date" | "rating" | "tags">;

export const RELATED_LIMIT = 6;

/** Title and author as the same book is recognised: case, accents and runs of spaces ignored. */
const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

/** What every reading of one book shares: a key to group a note with its re-readings. */
export const bookKey = (note: Pick<Note, "name" | "author">) => `${fold(note.name)}\u0000${fold(note.author)}`;

/** The same book: the same title and the same author, case and accents ignored (a re-read). */
export function isSameBook(a: Pick<Note, "name" | "author">, b: Pick<Note, "name" | "author">): boolean {
  return bookKey(a) === bookKey(b);
}

/** How a note is ranked against the others: computed once per note when many pages ask. */
type Ranks<T> = {
  /** The book's key (bookKey). */
  book: (note: T) => string;
  /** The note's place in the rating order (best rated first, ties by title). */
  rating: (note: T) => number;
  /** Whether two notes have the same author. */
  sameAuthor: (a: RelatableNote, b: T) => boolean;
};

function pickRelated<T extends RelatableNote>(
  note: RelatableNote,
  candidates: Iterable<T>,
  limit: number,
  ranks: Ranks<T>,
): T[] {
  const tags = new Set(note.tags);
  const book = bookKey(note);
  const close: { other: T; sameAuthor: number; sharedTags: number; rating: number }[] = [];
  for (const other of candidates) {
    if (other.slug === note.slug || ranks.book(other) === book) continue;
    const sameAuthor = ranks.sameAuthor(note, other) ? 1 : 0;
    const sharedTags = other.tags.filter((tag) => tags.has(tag)).length;
    if (sameAuthor > 0 || sharedTags > 0) close.push({ other, sameAuthor, sharedTags, rating: ranks.rating(other) });
  }
  close.sort((a, b) => b.sameAuthor - a.sameAuthor || b.sharedTags - a.sharedTags || a.rating - b.rating);
  // Another reading of a picked book is skipped: each book appears once, with its first reading in that order.
  const picked: T[] = [];
  const pickedBooks = new Set<string>();
  for (const { other } of close) {
    if (picked.length === limit) break;
    if (pickedBooks.has(ranks.book(other))) continue;
    picked.push(other);
    pickedBooks.add(ranks.book(other));
  }
  return picked;
}

/** Each note's place in the rating order; equally rated notes with the same title keep the list's order. */
function ratingPlaces<T extends RelatableNote>(notes: readonly T[]): Map<T, number> {
  return new Map([...notes].sort(comparators.rating).map((other, place) => [other, place]));
}

/**
 * Up to `limit` notes by the same author or sharing a tag with `note`, never the note itself nor
 * another reading of the same book (those are listed apart). The closest first: the same author,
 * then the most tags in common; among equally close notes the best rated first (ties by title).
 * Another book read twice appears once, with the first of its readings in that order.
 */
export function relatedNotes<T extends RelatableNote>(
  note: RelatableNote,
  notes: readonly T[],
  limit = RELATED_LIMIT,
): T[] {
  const places = ratingPlaces(notes);
  return pickRelated(note, notes, limit, {
    book: bookKey,
    rating: (other) => places.get(other) ?? 0,
    sameAuthor: (a, b) => isSameText(a.author, b.author),
  });
}

/**
 * The notes read just before (`previous`, older) and just after (`next`, newer) `note`, in the
 * site's date order (newest first, same-day notes by title); null at either end.
 */
export function previousAndNext<T extends RelatableNote>(
  note: RelatableNote,
  notes: readonly T[],
): { previous: T | null; next: T | null } {
  const byDate = [...notes].sort(comparators.date);
  const index = byDate.findIndex((other) => other.slug === note.slug);
  if (index === -1) return { previous: null, next: null };
  return { previous: byDate[index + 1] ?? null, next: byDate[index - 1] ?? null };
}

/**
 * The same two answers for every note of a catalogue, with the work that does not depend on the
 * note done once: the date order, the notes of each author and of each tag. A page then looks at
 * the notes that can relate to its note, not at the whole catalogue (a build prerenders every note).
 */
export function relatedIndex<T extends RelatableNote>(notes: readonly T[]) {
  const byDate = [...notes].sort(comparators.date);
  const datePosition = new Map(byDate.map((note, index) => [note.slug, index]));
  const books = new Map(notes.map((note) => [note, bookKey(note)]));
  const places = ratingPlaces(notes);
  // Equal authors sit side by side in author order: each run of them is one author's notes.
  const byAuthor = new Map<T, T[]>();
  let run: T[] = [];
  for (const note of [...notes].sort(comparators.author)) {
    const previous = run[0];
    if (previous && !isSameText(previous.author, note.author)) run = [];
    run.push(note);
    byAuthor.set(note, run);
  }
  const byTag = new Map<string, T[]>();
  for (const note of notes) for (const tag of note.tags) byTag.set(tag, [...(byTag.get(tag) ?? []), note]);

  return {
    relatedNotes: (note: T, limit = RELATED_LIMIT) => {
      const sameAuthor = new Set(byAuthor.get(note));
      const candidates = new Set([...sameAuthor, ...note.tags.flatMap((tag) => byTag.get(tag) ?? [])]);
      return pickRelated(note, candidates, limit, {
        book: (other) => books.get(other) ?? bookKey(other),
        rating: (other) => places.get(other) ?? 0,
        sameAuthor: (_, other) => sameAuthor.has(other),
      });
    },
    previousAndNext: (note: T): { previous: T | null; next: T | null } => {
      const index = datePosition.get(note.slug);
      if (index === undefined) return { previous: null, next: null };
      return { previous: byDate[index + 1] ?? null, next: byDate[index - 1] ?? null };
    },
  };
}
