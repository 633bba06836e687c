import { parseContentDate } from "../../catalogue/dates.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import { slugify, withoutSeries } from "../../catalogue/slug.ts";

export type Reading = {
  line: number;
  title: string;
  author: string;
  isbn: string;
  shelf: Shelf;
  /** Finished (read), started (reading), added (want), stopped (did-not-finish). */
  date: string;
  rating: number | null;
  labels: string[];
  review: string;
};

export type Skipped = { line: number | null; what: string; reason: string };

export type SourceBooks = { rows: number; readings: Reading[]; skipped: Skipped[]; remarks: string[] };

function isbn13Of(isbn10: string): string {
  const core = `978${isbn10.slice(0, 9)}`;
  const sum = [...core].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return `${core}${(10 - (sum % 10)) % 10}`;
}

/** Goodreads writes `="0735211299"` to keep spreadsheets from eating the zeros; StoryGraph puts its own ids in the column. */
export function normaliseIsbn(text: string): string {
  const bare = text
    .trim()
    .replace(/^="?|"$/g, "")
    .replace(/[\s-]/g, "")
    .toUpperCase();
  if (/^\d{13}$/.test(bare) && /^97[89]/.test(bare)) return bare;
  if (/^\d{9}[\dX]$/.test(bare)) return isbn13Of(bare);
  return "";
}

export function titleAuthorKey(title: string, author: string): string {
  const mainTitle = withoutSeries(title).replace(/\s*:\s.*$/, "");
  const firstAuthor = author.split(/,|&| and /)[0] ?? author;
  return `${slugify(mainTitle)}|${slugify(firstAuthor)}`;
}

/** StoryGraph rates in quarter stars; 0 stars is no rating. */
export function siteRating(stars: number, scale: number): number | null {
  if (stars === 0) return null;
  return Math.min(10, Math.round(stars * scale * 10) / 10);
}

/** Goodreads has no half stars. */
export function starsOf(rating: number, scale: number): number {
  return Math.min(5, Math.max(1, Math.round(rating / scale)));
}

export function sourceDay(text: string): string | null {
  const match = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(text.trim());
  if (!match) return null;
  const [, year, month, day] = match;
  return parseContentDate(`${month}/${day}/${year}`);
}

export const sourceDayText = (day: string) => day.replaceAll("-", "/");

export function starsFrom(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return 0;
  const stars = Number(trimmed);
  return Number.isFinite(stars) && stars >= 0 && stars <= 5 ? stars : null;
}

export const labelsFrom = (text: string) =>
  text
    .split(",")
    .map((label) => label.trim())
    .filter(Boolean);
