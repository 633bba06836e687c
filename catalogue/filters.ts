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

const QUERY_NAMES = { search: "q", tag: "tag", sort: "sort" } as const;

/** The query's fields for `filters`: each parameter once, none empty or at its default. */
export function filterFields(filters: Partial<Filters>): [name: string, value: string][] {
  return (Object.keys(QUERY_NAMES) as (keyof Filters)[])
    .filter((key) => filters[key] !== undefined && filters[key] !== DEFAULT_FILTERS[key])
    .map((key) => [QUERY_NAMES[key], filters[key] as string]);
}

export function filtersToQuery(filters: Filters): string {
  const query = new URLSearchParams(filterFields(filters)).toString();
  return query ? `?${query}` : "";
}

/** A list's query in one spelling; "" when it neither narrows nor sorts the list. */
export const canonicalListQuery = (params: URLSearchParams) => filtersToQuery(filtersFromQuery(params));

export function isNarrowed(filters: Filters): boolean {
  return filters.search.trim() !== "" || filters.tag !== "";
}

/** `items` come in the catalogue's order, the default sort's: a page's first render compares no text. */
export function applyFilters<T extends Searchable & Sortable>(items: readonly T[], filters: Filters): T[] {
  const matching = items.filter(
    (item) => (!filters.tag || item.tags.includes(filters.tag)) && matchesSearch(item, filters.search),
  );
  return filters.sort === DEFAULT_SORT ? matching : sortItems(matching, filters.sort);
}
