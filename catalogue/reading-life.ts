import type { IsoDay } from "./dates.ts";
import { bookKey } from "./related.ts";
import type { Note, ReadNote, Shelf, Writing } from "./schema.ts";
import { comparators } from "./sort.ts";
import { meanRating, notesPerTag, readingTime, topRated } from "./stats.ts";

export type ReadingEntry = { slug: string; path: string; date: IsoDay; shelf: Shelf; rating: number | null };
export type Mention = { path: string; name: string; date: IsoDay };

const oldestFirst = (a: Pick<Note, "date" | "slug">, b: Pick<Note, "date" | "slug">) =>
  a.date.localeCompare(b.date) || a.slug.localeCompare(b.slug, "en", { numeric: true });

type ReadNoteFields = Pick<Note, "slug" | "path" | "date" | "shelf" | "rating" | "name" | "author">;

export function readingHistories(notes: readonly ReadNoteFields[]): Map<string, ReadingEntry[]> {
  const byBook = new Map<string, ReadNoteFields[]>();
  for (const note of notes) {
    if (note.shelf === "want") continue;
    const key = bookKey(note);
    byBook.set(key, [...(byBook.get(key) ?? []), note]);
  }
  const histories = new Map<string, ReadingEntry[]>();
  for (const readings of byBook.values()) {
    if (readings.length < 2) continue;
    const history = [...readings]
      .sort(oldestFirst)
      .map(({ slug, path, date, shelf, rating }) => ({ slug, path, date, shelf, rating }));
    for (const reading of readings) histories.set(reading.slug, history);
  }
  return histories;
}

const isRated = (entry: ReadingEntry): entry is ReadingEntry & { rating: number } => entry.rating !== null;

export function changedMinds(notes: readonly Pick<Note, "name" | "author" | "readings">[], threshold = 1) {
  const seen = new Set<string>();
  return notes
    .flatMap(({ name, author, readings }) => {
      const key = readings[0]?.slug;
      if (key === undefined || seen.has(key)) return [];
      seen.add(key);
      const rated = readings.filter(isRated);
      const first = rated[0];
      const last = rated.at(-1);
      if (!first || !last || first === last) return [];
      // Ratings have one decimal: compare whole tenths, so 8.4 − 7.4 is a point, not 0.99….
      const tenths = Math.round(last.rating * 10) - Math.round(first.rating * 10);
      if (Math.abs(tenths) < Math.round(threshold * 10)) return [];
      return [{ name, author, readings, first, last, change: tenths / 10 }];
    })
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.name.localeCompare(b.name));
}

const NOTE_LINK = /^\/notes\/([a-z0-9]+(?:-[a-z0-9]+)*)\/?(?:[?#].*)?$/;

export function mentions(writings: readonly Writing[]): Map<string, Mention[]> {
  const bySlug = new Map<string, Mention[]>();
  for (const writing of [...writings].sort(comparators.date)) {
    const slugs = new Set(writing.links.flatMap((link) => NOTE_LINK.exec(link)?.[1] ?? []));
    for (const slug of slugs) {
      bySlug.set(slug, [...(bySlug.get(slug) ?? []), { path: writing.path, name: writing.name, date: writing.date }]);
    }
  }
  return bySlug;
}

export function bookYears(notes: readonly Pick<Note, "date" | "shelf">[]): string[] {
  const years = notes
    .filter((note) => note.shelf === "read" || note.shelf === "did-not-finish")
    .map((note) => note.date.slice(0, 4));
  return [...new Set(years)].sort();
}

export const YEAR_TOP_LIMIT = 5;

export function yearInBooks(notes: readonly Note[], year: string) {
  const inYear = (note: Note) => note.date.startsWith(`${year}-`);
  const read = notes.filter((note): note is ReadNote => note.shelf === "read" && inYear(note)).sort(oldestFirst);
  const isReRead = (note: Note) => note.readings.findIndex((entry) => entry.slug === note.slug) > 0;
  return {
    year,
    read,
    count: read.length,
    time: readingTime(read),
    averageRating: meanRating(read.map((note) => note.rating)),
    top: topRated(read, YEAR_TOP_LIMIT),
    tags: notesPerTag(read),
    reReads: read.filter(isReRead),
    didNotFinish: notes.filter((note) => note.shelf === "did-not-finish" && inYear(note)).sort(oldestFirst),
  };
}
export type YearInBooks = ReturnType<typeof yearInBooks>;

export type GoalProgress = { year: string; books: number; done: number };

export function goalOfYear(goals: Record<string, number>, notes: readonly Note[], year: string): GoalProgress | null {
  const books = goals[year];
  if (books === undefined) return null;
  const done = notes.filter((note) => note.shelf === "read" && note.date.startsWith(`${year}-`)).length;
  return { year, books, done };
}

/** This year's goal, or none: an earlier year's goal is no goal for this one. */
export const currentGoal = (goals: Record<string, number>, notes: readonly Note[], today: Date) =>
  goalOfYear(goals, notes, String(today.getFullYear()));
