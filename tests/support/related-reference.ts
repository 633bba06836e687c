import { bookKey, RELATED_LIMIT, type RelatableNote } from "../../catalogue/related.ts";
import { comparators, isSameText } from "../../catalogue/sort.ts";

// The plain definitions of a note's related notes and neighbours: the catalogue's index must answer exactly as these.

export function relatedNotes<T extends RelatableNote>(
  note: RelatableNote,
  notes: readonly T[],
  limit = RELATED_LIMIT,
): T[] {
  const places = new Map([...notes].sort(comparators.rating).map((other, place) => [other, place]));
  const tags = new Set(note.tags);
  const close = notes
    .filter((other) => other.slug !== note.slug && bookKey(other) !== bookKey(note))
    .map((other) => ({
      other,
      sameAuthor: isSameText(other.author, note.author) ? 1 : 0,
      sharedTags: other.tags.filter((tag) => tags.has(tag)).length,
      place: places.get(other) ?? 0,
    }))
    .filter(({ sameAuthor, sharedTags }) => sameAuthor > 0 || sharedTags > 0)
    .sort((a, b) => b.sameAuthor - a.sameAuthor || b.sharedTags - a.sharedTags || a.place - b.place);
  const picked: T[] = [];
  for (const { other } of close) {
    if (picked.length === limit) break;
    if (!picked.some((kept) => bookKey(kept) === bookKey(other))) picked.push(other);
  }
  return picked;
}

export function previousAndNext<T extends RelatableNote>(
  note: RelatableNote,
  notes: readonly T[],
): { previous: T | null; next: T | null } {
  const byDate = [...notes].sort(comparators.date);
  const index = byDate.findIndex((other) => other.slug === note.slug);
  if (index === -1) return { previous: null, next: null };
  return { previous: byDate[index + 1] ?? null, next: byDate[index - 1] ?? null };
}
