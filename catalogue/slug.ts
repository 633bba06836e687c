/** The slug rule of content/README.md: "Man's Search for Meaning" → "mans-search-for-meaning". */
export function slugify(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A re-read of a book is the same slug with `-2`, `-3`, … */
export function isSlugOf(slug: string, title: string): boolean {
  const base = slugify(title);
  return slug === base || new RegExp(`^${base}-(?:[2-9]|[1-9]\\d+)$`).test(slug);
}
