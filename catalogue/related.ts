import type { Note } from "./schema.ts";
import { comparators, isSameText } from "./sort.ts";

export type RelatableNote = Pick<Note, "slug" | "name" | "author" | "date" | "rating" | "tags">;

export const RELATED_LIMIT = 6;

const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

export const bookKey = (note: Pick<Note, "name" | "author">) => `${fold(note.name)}\u0000${fold(note.author)}`;

export function isSameBook(a: Pick<Note, "name" | "author">, b: Pick<Note, "name" | "author">): boolean {
  return bookKey(a) === bookKey(b);
}

function firstBooks<T>(closestFirst: Iterable<T>, limit: number, book: (note: T) => string): T[] {
  const picked: T[] = [];
  const pickedBooks = new Set<string>();
  for (const other of closestFirst) {
    if (picked.length === limit) break;
    if (pickedBooks.has(book(other))) continue;
    picked.push(other);
    pickedBooks.add(book(other));
  }
  return picked;
}

type Closeness<T> = { other: T; sharedTags: number; place: number };

const closerFirst = <T>(a: Closeness<T>, b: Closeness<T>) => b.sharedTags - a.sharedTags || a.place - b.place;

const countShared = (tags: ReadonlySet<string>, other: RelatableNote) =>
  other.tags.reduce((count, tag) => (tags.has(tag) ? count + 1 : count), 0);

export function relatedIndex<T extends RelatableNote>(notes: readonly T[]) {
  const byDate = [...notes].sort(comparators.date);
  const datePosition = new Map(byDate.map((note, index) => [note.slug, index]));
  const books = new Map(notes.map((note) => [note, bookKey(note)]));
  const bookOf = (note: T) => books.get(note) ?? bookKey(note);
  const places = new Map([...notes].sort(comparators.rating).map((other, place) => [other, place]));
  const placeOf = (note: T) => places.get(note) ?? 0;
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
  for (const note of [...notes].sort(comparators.rating)) {
    for (const tag of note.tags) {
      const list = byTag.get(tag);
      if (list) list.push(note);
      else byTag.set(tag, [note]);
    }
  }

  // Read only as far as the page needs, so a page does not score every note of its tags.
  function* closestFirst(note: T): Generator<T> {
    const tags = new Set(note.tags);
    const sameAuthor = new Set(byAuthor.get(note));
    const book = bookOf(note);
    const closeness = (other: T) => ({ other, sharedTags: countShared(tags, other), place: placeOf(other) });
    const isOther = (other: T) => other.slug !== note.slug && bookOf(other) !== book;
    const sameAuthorFirst = [...sameAuthor].filter(isOther).map(closeness).sort(closerFirst);
    for (const { other } of sameAuthorFirst) yield other;
    // A note sharing two tags is in two of the note's tag lists: in one of them but the longest.
    const lists = note.tags.map((tag) => byTag.get(tag) ?? []);
    const longest = lists.reduce((a, b) => (b.length > a.length ? b : a), []);
    const several = new Map<T, Closeness<T>>();
    for (const list of lists) {
      if (list === longest) continue;
      for (const other of list) {
        if (sameAuthor.has(other) || several.has(other) || !isOther(other)) continue;
        const close = closeness(other);
        if (close.sharedTags >= 2) several.set(other, close);
      }
    }
    for (const { other } of [...several.values()].sort(closerFirst)) yield other;
    // The rest share one tag, so each is in one list: the lists merged in rating order.
    const heads = lists.map(() => 0);
    for (;;) {
      let next = -1;
      for (const [index, list] of lists.entries()) {
        const head = list[heads[index] ?? 0];
        const best = lists[next]?.[heads[next] ?? 0];
        if (head && (!best || placeOf(head) < placeOf(best))) next = index;
      }
      if (next < 0) return;
      const other = lists[next]?.[heads[next] ?? 0] as T;
      heads[next] = (heads[next] ?? 0) + 1;
      if (!sameAuthor.has(other) && !several.has(other) && isOther(other)) yield other;
    }
  }

  return {
    relatedNotes: (note: T, limit = RELATED_LIMIT) => firstBooks(closestFirst(note), limit, bookOf),
    previousAndNext: (note: T): { previous: T | null; next: T | null } => {
      const index = datePosition.get(note.slug);
      if (index === undefined) return { previous: null, next: null };
      return { previous: byDate[index + 1] ?? null, next: byDate[index - 1] ?? null };
    },
  };
}
