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
  const tags = new Set(note.tags);
  const closeness = (other: RelatableNote) => ({
    sameAuthor: isSameText(other.author, note.author) ? 1 : 0,
    sharedTags: other.tags.filter((tag) => tags.has(tag)).length,
  });
  return notes
    .filter((other) => other.slug !== note.slug && !isSameBook(note, other))
    .map((other) => ({ other, ...closeness(other) }))
    .filter(({ sameAuthor, sharedTags }) => sameAuthor > 0 || sharedTags > 0)
    .sort((a, b) => b.sameAuthor - a.sameAuthor || b.sharedTags - a.sharedTags || comparators.rating(a.other, b.other))
    .map(({ other }) => other)
    .filter((other, index, all) => !all.slice(0, index).some((earlier) => isSameBook(earlier, other)))
    .slice(0, limit);
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
