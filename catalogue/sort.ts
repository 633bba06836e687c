/**
 * The sort orders (date and release date newest first, title and author A to Z, rating highest
 * first, time shortest first without the unknown 0s), defined once and used by every list on the site.
 * Dates are ISO days, so comparing the strings compares the dates.
 */
import type { IsoDay } from "./dates.ts";

export const SORT_KEYS = ["date", "title", "author", "rating", "time", "releaseDate"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const DEFAULT_SORT: SortKey = "date";

export type Sortable = {
  name: string;
  author?: string;
  date: IsoDay;
  /** null: a book given up without a rating, which sorts after every rated one. */
  rating?: number | null;
  time?: number;
  releaseDate?: IsoDay | "";
};

/**
 * Title and author compare as text with case and accents ignored, numbers in numeric order. The
 * collator is made on first use, not when the module loads: making one costs a phone ~40 ms, and a
 * page that imports this module for a list sorted by date compares text only if two dates tie.
 */
let collator: Intl.Collator | undefined;
function compareText(a: string, b: string): number {
  collator ??= new Intl.Collator("en", { sensitivity: "base", numeric: true });
  return collator.compare(a, b);
}

/** Whether two texts are the same for the sort orders: case and accents ignored. */
export const isSameText = (a: string, b: string) => compareText(a, b) === 0;

const newestFirst = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

type Comparator = (a: Sortable, b: Sortable) => number;

/** Below the lowest rating (0): an unrated note comes after every rated one. */
const UNRATED = -1;

const byTitle: Comparator = (a, b) => compareText(a.name, b.name);

export const comparators: Record<SortKey, Comparator> = {
  date: (a, b) => newestFirst(a.date, b.date) || byTitle(a, b),
  releaseDate: (a, b) => newestFirst(a.releaseDate ?? "", b.releaseDate ?? "") || byTitle(a, b),
  title: byTitle,
  author: (a, b) => compareText(a.author ?? "", b.author ?? "") || byTitle(a, b),
  rating: (a, b) => (b.rating ?? UNRATED) - (a.rating ?? UNRATED) || byTitle(a, b),
  time: (a, b) => (a.time ?? 0) - (b.time ?? 0) || byTitle(a, b),
};

/** A sorted copy; sorting by read time leaves out the items whose time is unknown (0). */
export function sortItems<T extends Sortable>(items: readonly T[], key: SortKey): T[] {
  const kept = key === "time" ? items.filter((item) => (item.time ?? 0) > 0) : [...items];
  return kept.sort(comparators[key]);
}

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === "string" && (SORT_KEYS as readonly string[]).includes(value);
}
