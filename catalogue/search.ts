/** The search predicate, defined once: a case-insensitive substring of the name, author, category or any tag. */
export type Searchable = { name: string; author?: string; category: string; tags: readonly string[] };

/** Case-insensitive substring match on name, author, category or any tag; an empty query matches all. */
export function matchesSearch(item: Searchable, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  const fields = [item.name, item.author ?? "", item.category, ...item.tags];
  return fields.some((field) => field.toLowerCase().includes(needle));
}
