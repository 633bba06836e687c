/**
 * The shelves' names as the pages, cards and feeds show them, and how a note's rating reads.
 * A note with no `shelf` is a book read to the end (catalogue/schema.ts).
 */
import type { Shelf } from "./schema.ts";

export const SHELF_LABELS: Record<Shelf, string> = {
  read: "Read",
  reading: "Reading now",
  want: "Want to read",
  "did-not-finish": "Did not finish",
};

/** The order of the shelves page. */
export const SHELF_PAGE_ORDER = ["reading", "want", "did-not-finish"] as const satisfies readonly Shelf[];

/** "8.4 / 10", or null for a note with no rating (a book not read yet, or given up unrated). */
export function ratingText(rating: number | null): string | null {
  return rating === null ? null : `${rating.toFixed(1)} / 10`;
}
