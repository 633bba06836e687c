/**
 * The notes list's filters {search, sort, tag}. They start from the
 * defaults on every visit and live in the URL query so a filtered list can be shared and Back
 * restores it.
 */
import { matchesSearch, type Searchable } from "./search.ts";
import { DEFAULT_SORT, isSortKey, type Sortable, type SortKey, sortItems } from "./sort.ts";

export type Filters = { search: string; sort: SortKey; tag: string };

export const DEFAULT_FILTERS: Filters = { search: "", sort: DEFAULT_SORT, tag: "" };

/**
 * Reads filters from a query string, ignoring anything unknown (a hand-edited URL must not break
 * the page). When a name repeats, the last value wins: without JavaScript the filter form sends
 * its current values and then the value of the button that was pressed.
 */
export function filtersFromQuery(params: URLSearchParams): Filters {
  const last = (name: string) => params.getAll(name).at(-1) ?? "";
  const sort = last("sort");
  return {
    search: last("q"),
    sort: isSortKey(sort) ? sort : DEFAULT_SORT,
    tag: last("tag"),
  };
}

/** The query string for filters, leaving defaults out so the plain list is just `/notes`. */
export function filtersToQuery(filters: Filters): string {
  const params = new URLSearchParams();
  if (filters.search) params.set("q", filters.search);
  if (filters.tag) params.set("tag", filters.tag);
  if (filters.sort !== DEFAULT_SORT) params.set("sort", filters.sort);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** 'Results (n)' is shown only when a search or a tag narrows the list. */
export function isNarrowed(filters: Filters): boolean {
  return filters.search.trim() !== "" || filters.tag !== "";
}

export function applyFilters<T extends Searchable & Sortable>(items: readonly T[], filters: Filters): T[] {
  const matching = items.filter(
    (item) => (!filters.tag || item.tags.includes(filters.tag)) && matchesSearch(item, filters.search),
  );
  return sortItems(matching, filters.sort);
}
