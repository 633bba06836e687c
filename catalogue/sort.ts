// Dates are ISO days, so comparing the strings compares the dates.
import type { IsoDay } from "./dates.ts";

export const SORT_KEYS = ["date", "title", "author", "rating", "time", "releaseDate"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const DEFAULT_SORT: SortKey = "date";

export type Sortable = {
  name: string;
  author?: string;
  date: IsoDay;
  rating?: number | null;
  time?: number;
  releaseDate?: IsoDay | "";
};

// Made on first use: a collator costs a phone ~40 ms, and a list sorted by date compares text only on ties.
let collator: Intl.Collator | undefined;
function compareText(a: string, b: string): number {
  collator ??= new Intl.Collator("en", { sensitivity: "base", numeric: true });
  return collator.compare(a, b);
}

export const isSameText = (a: string, b: string) => compareText(a, b) === 0;

const newestFirst = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

type Comparator = (a: Sortable, b: Sortable) => number;

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

export function sortItems<T extends Sortable>(items: readonly T[], key: SortKey): T[] {
  const kept = key === "time" ? items.filter((item) => (item.time ?? 0) > 0) : [...items];
  return kept.sort(comparators[key]);
}

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === "string" && (SORT_KEYS as readonly string[]).includes(value);
}
