import { present } from "./present.ts";
import { isSameBook } from "./related.ts";
import type { ReadNote } from "./schema.ts";
import { comparators } from "./sort.ts";

export type StatsNote = Pick<ReadNote, "name" | "author" | "date" | "rating" | "time" | "tags">;

export const TOP_RATED_LIMIT = 10;
export const TOP_TAGS_LIMIT = 10;

const yearOf = (note: Pick<StatsNote, "date">) => note.date.slice(0, 4);

// Sums whole tenths, so no floating-point drift decides a rounding (7.95 is 7.95, not 7.9499…).
export function meanRating(ratings: readonly number[]): number {
  if (ratings.length === 0) return 0;
  const tenths = ratings.reduce((sum, rating) => sum + Math.round(rating * 10), 0);
  return Math.round(tenths / ratings.length) / 10;
}

function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

export function notesPerYear(notes: readonly Pick<StatsNote, "date">[]) {
  const counts = countBy(notes.map(yearOf));
  const years = [...counts.keys()].map(Number);
  const first = Math.min(...years);
  return Array.from({ length: years.length === 0 ? 0 : Math.max(...years) - first + 1 }, (_, at) => {
    const year = String(first + at);
    return { year, count: counts.get(year) ?? 0 };
  });
}

export function notesPerTag(notes: readonly Pick<StatsNote, "tags">[]) {
  return [...countBy(notes.flatMap((note) => note.tags))]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

export function mostCommonTags(notes: readonly StatsNote[], limit = TOP_TAGS_LIMIT) {
  return notesPerTag(notes).slice(0, limit);
}

export function ratingDistribution(notes: readonly StatsNote[]) {
  const counts = new Array<number>(10).fill(0);
  for (const note of notes) {
    const bucket = Math.min(9, Math.floor(note.rating));
    counts[bucket] = present(counts[bucket], "a rating between 0 and 10 (catalogue/schema.ts)") + 1;
  }
  return counts.map((count, from) => ({ from, label: from === 9 ? "9–10" : `${from}–${from}.9`, count })).reverse();
}

export function averageRatingPerYear(notes: readonly StatsNote[]) {
  const byYear = new Map<string, number[]>();
  for (const note of notes) byYear.set(yearOf(note), [...(byYear.get(yearOf(note)) ?? []), note.rating]);
  return [...byYear]
    .map(([year, ratings]) => ({ year, average: meanRating(ratings), count: ratings.length }))
    .sort((a, b) => a.year.localeCompare(b.year));
}

export function averageRating(notes: readonly StatsNote[]): number {
  return meanRating(notes.map((note) => note.rating));
}

export function topRated<T extends StatsNote>(notes: readonly T[], limit = TOP_RATED_LIMIT): T[] {
  const best: T[] = [];
  const byRating = [...notes].sort((a, b) => comparators.rating(a, b) || comparators.date(a, b));
  for (const note of byRating) {
    if (!best.some((kept) => isSameBook(kept, note))) best.push(note);
    if (best.length === limit) break;
  }
  return best;
}

export function readingTime(notes: readonly StatsNote[]) {
  const known = notes.filter((note) => note.time > 0);
  return {
    totalMinutes: known.reduce((sum, note) => sum + note.time, 0),
    known: known.length,
    unknown: notes.length - known.length,
  };
}

export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const part = (count: number, unit: string) => `${count.toLocaleString("en-US")} ${unit}${count === 1 ? "" : "s"}`;
  if (hours === 0) return part(rest, "minute");
  return rest === 0 ? part(hours, "hour") : `${part(hours, "hour")} ${part(rest, "minute")}`;
}

export function readingStats(notes: readonly StatsNote[]) {
  const perYear = notesPerYear(notes);
  return {
    total: notes.length,
    firstYear: perYear[0]?.year ?? "",
    lastYear: perYear.at(-1)?.year ?? "",
    averageRating: averageRating(notes),
    perYear,
    ratings: ratingDistribution(notes),
    averagePerYear: averageRatingPerYear(notes),
    tags: mostCommonTags(notes),
    time: readingTime(notes),
  };
}
