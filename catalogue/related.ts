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
  const closest = notes
    .filter((other) => other.slug !== note.slug && !isSameBook(note, other))
    .map((other) => ({ other, ...closeness(other) }))
    .filter(({ sameAuthor, sharedTags }) => sameAuthor > 0 || sharedTags > 0)
    .sort((a, b) => b.sameAuthor - a.sameAuthor || b.sharedTags - a.sharedTags || comparators.rating(a.other, b.other));
  // Checked against the picked notes only: a skipped reading is the same book as a picked one.
  const picked: T[] = [];
  for (const { other } of closest) {
    if (picked.length === limit) break;
    if (!picked.some((earlier) => isSameBook(earlier, other))) picked.push(other);
  }
  return picked;
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
  const catalogueOrder = new Map(notes.map((note, index) => [note, index]));
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
      const candidates = new Set([...(byAuthor.get(note) ?? []), ...note.tags.flatMap((tag) => byTag.get(tag) ?? [])]);
      // In the catalogue's order, so that equally close notes come out as relatedNotes orders them.
      const ordered = [...candidates].sort((a, b) => (catalogueOrder.get(a) ?? 0) - (catalogueOrder.get(b) ?? 0));
      return relatedNotes(note, ordered, limit);
    },
    previousAndNext: (note: T): { previous: T | null; next: T | null } => {
      const index = datePosition.get(note.slug);
      if (index === undefined) return { previous: null, next: null };
      return { previous: byDate[index + 1] ?? null, next: byDate[index - 1] ?? null };
    },
  };
}
