import { MAX_SLUG_BYTES } from "./limits.ts";
import { withoutSeries } from "./series.ts";

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
