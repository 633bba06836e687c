import type { Shelf } from "./schema.ts";

export const SHELF_LABELS: Record<Shelf, string> = {
  read: "Read",
  reading: "Reading now",
  want: "Want to read",
  "did-not-finish": "Did not finish",
};

export const SHELF_PAGE_ORDER = ["reading", "want", "did-not-finish"] as const satisfies readonly Shelf[];

export function ratingText(rating: number | null): string | null {
  return rating === null ? null : `${rating.toFixed(1)} / 10`;
}
