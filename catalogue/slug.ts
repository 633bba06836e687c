import { MAX_SLUG_BYTES } from "./limits.ts";

/**
 * A series suffix as Goodreads and StoryGraph write it after a title: "(The Stormlight Archive, #1)",
 * "(Discworld #2.5)", "(Series, #1-3)". It stays in the title but not in the slug.
 */
const SERIES_SUFFIX = /\s*\([^()]*#\s*\d+(?:\.\d+)?(?:\s*-\s*\d+(?:\.\d+)?)?\)\s*$/;

/** The title without its series suffix: "The Way of Kings (The Stormlight Archive, #1)" → "The Way of Kings". */
export function withoutSeries(title: string): string {
  const bare = title.replace(SERIES_SUFFIX, "");
  return bare.trim() ? bare : title;
}

/** A title's slug stops short of the limit, leaving a re-read's "-2" … "-999" room. */
const TITLE_SLUG_LENGTH = MAX_SLUG_BYTES - 4;

/** The slug cut after its last whole word that fits; a single longer word is cut where it must be. */
function cutAtWord(slug: string): string {
  if (slug.length <= TITLE_SLUG_LENGTH) return slug;
  const lastHyphen = slug.lastIndexOf("-", TITLE_SLUG_LENGTH);
  return slug.slice(0, lastHyphen > 0 ? lastHyphen : TITLE_SLUG_LENGTH);
}

/**
 * The slug rule of content/README.md: "Man's Search for Meaning" → "mans-search-for-meaning"; a
 * series suffix is left out ("The Way of Kings (The Stormlight Archive, #1)" → "the-way-of-kings");
 * a very long title is cut at a word, so that the file name fits every filesystem.
 */
export function slugify(title: string): string {
  return cutAtWord(
    withoutSeries(title)
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/['’]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, ""),
  );
}

/** A re-read of a book is the same slug with `-2`, `-3`, … */
export function isSlugOf(slug: string, title: string): boolean {
  const base = slugify(title);
  return slug === base || new RegExp(`^${base}-(?:[2-9]|[1-9]\\d+)$`).test(slug);
}
