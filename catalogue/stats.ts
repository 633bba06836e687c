/**
 * The reading stats of /stats: pure functions of the book notes. A re-read is a note of
 * its own, so it counts in every figure but the top-rated list, which names each book once.
 */
import { present } from "./present.ts";
import { isSameBook } from "./related.ts";
import type { ReadNote } from "./schema.ts";
import { comparators } from "./sort.ts";

export type StatsNote = Pick<ReadNote, "name" | "author" | "date" | "rating" | "time" | "tags">;

export type YearCount = { year: string; count: number };
export type TagCount = { tag: string; count: number };
/** Ratings from `from` up to and not including `from + 1`; the top bucket also holds 10. */
export type RatingBucket = { from: number; label: string; count: number };
export type YearAverage = { year: string; average: number; count: number };
export type ReadingTime = { totalMinutes: number; known: number; unknown: number };

export const TOP_RATED_LIMIT = 10;
export const TOP_TAGS_LIMIT = 10;

const yearOf = (note: Pick<StatsNote, "date">) => note.date.slice(0, 4);

/**
 * The mean of ratings, to one decimal as ratings are written. Ratings have one decimal, so it sums
 * whole tenths: no floating-point drift decides a rounding (7.95 is 7.95, not 7.9499…).
 */
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

/** Every year from the first note to the last, oldest first; a year with no note counts 0. */
export function notesPerYear(notes: readonly Pick<StatsNote, "date">[]): YearCount[] {
  const counts = countBy(notes.map(yearOf));
  const years = [...counts.keys()].map(Number);
  if (years.length === 0) return [];
  const result: YearCount[] = [];
  for (let year = Math.min(...years); year <= Math.max(...years); year++) {
    result.push({ year: String(year), count: counts.get(String(year)) ?? 0 });
  }
  return result;
}

/** Notes per tag, most used first, ties by name. */
export function notesPerTag(notes: readonly Pick<StatsNote, "tags">[]): TagCount[] {
  return [...countBy(notes.flatMap((note) => note.tags))]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

export function mostCommonTags(notes: readonly StatsNote[], limit = TOP_TAGS_LIMIT): TagCount[] {
  return notesPerTag(notes).slice(0, limit);
}

/** Ten buckets, highest first: 9–10 (10 included), 8–8.9, …, 0–0.9. Empty buckets count 0. */
export function ratingDistribution(notes: readonly StatsNote[]): RatingBucket[] {
  const counts = new Array<number>(10).fill(0);
  for (const note of notes) {
    const bucket = Math.min(9, Math.floor(note.rating));
    counts[bucket] = present(counts[bucket], "a rating between 0 and 10 (catalogue/schema.ts)") + 1;
  }
  return counts.map((count, from) => ({ from, label: from === 9 ? "9–10" : `${from}–${from}.9`, count })).reverse();
}

/** The average rating of each year that has notes, oldest first, rounded to one decimal. */
export function averageRatingPerYear(notes: readonly StatsNote[]): YearAverage[] {
  const byYear = new Map<string, number[]>();
  for (const note of notes) byYear.set(yearOf(note), [...(byYear.get(yearOf(note)) ?? []), note.rating]);
  return [...byYear]
    .map(([year, ratings]) => ({
      year,
      average: meanRating(ratings),
      count: ratings.length,
    }))
    .sort((a, b) => a.year.localeCompare(b.year));
}

/** The average of all ratings, rounded to one decimal (0 with no notes). */
export function averageRating(notes: readonly StatsNote[]): number {
  return meanRating(notes.map((note) => note.rating));
}

/**
 * The best-rated books, best first (the site's rating order). A book read more than once appears
 * once, with its best-rated reading (the newest of equally rated ones).
 */
export function topRated<T extends StatsNote>(notes: readonly T[], limit = TOP_RATED_LIMIT): T[] {
  const best: T[] = [];
  const byRating = [...notes].sort((a, b) => comparators.rating(a, b) || comparators.date(a, b));
  for (const note of byRating) {
    if (!best.some((kept) => isSameBook(kept, note))) best.push(note);
    if (best.length === limit) break;
  }
  return best;
}

/** The sum of the known read times; a time of 0 means unknown and is counted apart. */
export function readingTime(notes: readonly StatsNote[]): ReadingTime {
  const known = notes.filter((note) => note.time > 0);
  return {
    totalMinutes: known.reduce((sum, note) => sum + note.time, 0),
    known: known.length,
    unknown: notes.length - known.length,
  };
}

/** "396 hours 42 minutes", "1 hour", "45 minutes". */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const part = (count: number, unit: string) => `${count.toLocaleString("en-US")} ${unit}${count === 1 ? "" : "s"}`;
  if (hours === 0) return part(rest, "minute");
  return rest === 0 ? part(hours, "hour") : `${part(hours, "hour")} ${part(rest, "minute")}`;
}

export type ReadingStats = {
  total: number;
  firstYear: string;
  lastYear: string;
  averageRating: number;
  perYear: YearCount[];
  ratings: RatingBucket[];
  averagePerYear: YearAverage[];
  tags: TagCount[];
  time: ReadingTime;
};

/** Every figure of the stats page except the top-rated list (which keeps its notes). */
export function readingStats(notes: readonly StatsNote[]): ReadingStats {
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
