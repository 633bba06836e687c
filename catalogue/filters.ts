import { matchesSearch, type Searchable } from "./search.ts";
import { DEFAULT_SORT, isSortKey, type Sortable, type SortKey, sortItems } from "./sort.ts";

export type Filters = { search: string; sort: SortKey; tag: string };

export const DEFAULT_FILTERS: Filters = { search: "", sort: DEFAULT_SORT, tag: "" };

// A repeated name takes its last value: without JavaScript the form sends its values, then the pressed button's.
export function filtersFromQuery(params: URLSearchParams): Filters {
  const last = (name: string) => params.getAll(name).at(-1) ?? "";
  const sort = last("sort");
  return { search: last("q"), sort: isSortKey(sort) ? sort : DEFAULT_SORT, tag: last("tag") };
}

export function filtersToQuery(filters: Filters): string {
  const params = new URLSearchParams();
  if (filters.search) params.set("q", filters.search);
  if (filters.tag) params.set("tag", filters.tag);
  if (filters.sort !== DEFAULT_SORT) params.set("sort", filters.sort);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** A list's query in one spelling; "" when it neither narrows nor sorts the list. */
export const canonicalListQuery = (params: URLSearchParams) => filtersToQuery(filtersFromQuery(params));

export function isNarrowed(filters: Filters): boolean {
  return filters.search.trim() !== "" || filters.tag !== "";
}

export function applyFilters<T extends Searchable & Sortable>(items: readonly T[], filters: Filters): T[] {
  const matching = items.filter(
    (item) => (!filters.tag || item.tags.includes(filters.tag)) && matchesSearch(item, filters.search),
  );
  return sortItems(matching, filters.sort);
}
