import { MAX_SLUG_BYTES } from "./limits.ts";

const SERIES_SUFFIX = /\s*\([^()]*#\s*\d+(?:\.\d+)?(?:\s*-\s*\d+(?:\.\d+)?)?\)\s*$/;

export function withoutSeries(title: string): string {
  const bare = title.replace(SERIES_SUFFIX, "");
  return bare.trim() ? bare : title;
}

/** A title's slug stops short of the limit, leaving a re-read's "-2" … "-999" room. */
const TITLE_SLUG_LENGTH = MAX_SLUG_BYTES - 4;

function cutAtWord(slug: string): string {
  if (slug.length <= TITLE_SLUG_LENGTH) return slug;
  const lastHyphen = slug.lastIndexOf("-", TITLE_SLUG_LENGTH);
  return slug.slice(0, lastHyphen > 0 ? lastHyphen : TITLE_SLUG_LENGTH);
}

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

export function isSlugOf(slug: string, title: string): boolean {
  const base = slugify(title);
  return slug === base || new RegExp(`^${base}-(?:[2-9]|[1-9]\\d+)$`).test(slug);
}
