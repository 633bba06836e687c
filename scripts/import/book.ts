/**
 * What every reading-history source gives: one reading of one book, in the site's terms, and the
 * small rules they share (ISBNs, the book's identity, ratings, the sources' dates).
 */
import { parseContentDate } from "../../catalogue/dates.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import { slugify, withoutSeries } from "../../catalogue/slug.ts";

/** One reading of a book, as a source tells it: it becomes one note. */
export type Reading = {
  /** Where it is in the source file, for the report. */
  line: number;
  title: string;
  author: string;
  /** ISBN-13 digits, or "" when the source has none. */
  isbn: string;
  shelf: Shelf;
  /** ISO day: finished (read), started (reading), added (want), stopped (did-not-finish). */
  date: string;
  /** On the site's 0–10 scale; null when the source has no rating. */
  rating: number | null;
  /** The source's own shelves or tags, to be mapped to the site's tags. */
  labels: string[];
  /** Markdown. */
  review: string;
};

/** A row or post left out, and why. */
export type Skipped = { line: number | null; what: string; reason: string };

/** What a source file gives: its readings, the rows it could not read, and remarks for the report. */
export type SourceBooks = { rows: number; readings: Reading[]; skipped: Skipped[]; remarks: string[] };

/** ISBN-10 to ISBN-13: 978, the first nine digits, and a new check digit. */
function isbn13Of(isbn10: string): string {
  const core = `978${isbn10.slice(0, 9)}`;
  const sum = [...core].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return `${core}${(10 - (sum % 10)) % 10}`;
}

/**
 * An ISBN as the sources write it — `="0735211299"` (Goodreads keeps spreadsheets from eating the
 * zeros), with hyphens or spaces — as ISBN-13 digits, so that both forms of one book compare
 * equal; "" for no ISBN or something else (StoryGraph writes its own ids in the same column).
 */
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

/**
 * A book's identity without an ISBN: its title without series or subtitle, and its first author,
 * both reduced like slugs, so "Atomic Habits: An Easy & Proven Way…" by "James  Clear" is
 * "Atomic Habits" by "James Clear".
 */
export function titleAuthorKey(title: string, author: string): string {
  const mainTitle = withoutSeries(title).replace(/\s*:\s.*$/, "");
  const firstAuthor = author.split(/,|&| and /)[0] ?? author;
  return `${slugify(mainTitle)}|${slugify(firstAuthor)}`;
}

/** A rating of the sources' 1–5 stars (StoryGraph: quarter stars) on the site's 0–10 scale; 0 stars is no rating. */
export function siteRating(stars: number, scale: number): number | null {
  if (stars === 0) return null;
  return Math.min(10, Math.round(stars * scale * 10) / 10);
}

/** The whole stars Goodreads takes for a site rating (it has no half stars); 0 means unrated. */
export function starsOf(rating: number, scale: number): number {
  return Math.min(5, Math.max(1, Math.round(rating / scale)));
}

/** The sources write days as 2019/03/14 (also 2019-03-14); null for anything else. */
export function sourceDay(text: string): string | null {
  const match = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(text.trim());
  if (!match) return null;
  const [, year, month, day] = match;
  return parseContentDate(`${month}/${day}/${year}`);
}

/** The same day as the sources write it: 2019/03/14. */
export const sourceDayText = (day: string) => day.replaceAll("-", "/");

/** A number of stars from a source's rating column: 0 to 5, or null when it is not one. */
export function starsFrom(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return 0;
  const stars = Number(trimmed);
  return Number.isFinite(stars) && stars >= 0 && stars <= 5 ? stars : null;
}

/** A source's list of shelves or tags: "favorites, sci-fi" → ["favorites", "sci-fi"]. */
export const labelsFrom = (text: string) =>
  text
    .split(",")
    .map((label) => label.trim())
    .filter(Boolean);
