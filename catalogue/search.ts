export type Searchable = { name: string; author?: string; category: string; tags: readonly string[] };

export function matchesSearch(item: Searchable, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  const fields = [item.name, item.author ?? "", item.category, ...item.tags];
  return fields.some((field) => field.toLowerCase().includes(needle));
}
