import { useDeferredValue, useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { type Filters, filtersFromQuery, filtersToQuery } from "../../catalogue/filters";
import type { SortKey } from "../../catalogue/sort";

/**
 * The filters of a list page, mirrored in the URL query (DESIGN §7.6). The search box keeps its own
 * state so typing never waits for the router; the URL follows with replace (typing adds no history
 * entries), while a tag or a sort is a new entry that Back undoes.
 */
export function useListFilters() {
  const [params, setParams] = useSearchParams();
  const fromUrl = filtersFromQuery(params);
  const [search, setSearchState] = useState(fromUrl.search);
  /** Searches written to the URL that the router has not shown back yet (it trails fast typing). */
  const pending = useRef<string[]>([]);

  // Our own URL updates arrive late and in order: skip them. Any other change (Back, Forward) wins.
  useEffect(() => {
    const ours = pending.current.indexOf(fromUrl.search);
    if (ours >= 0) {
      pending.current.splice(0, ours + 1);
      return;
    }
    pending.current = [];
    setSearchState(fromUrl.search);
  }, [fromUrl.search]);

  const navigate = (next: Filters, replace: boolean) =>
    setParams(new URLSearchParams(filtersToQuery(next)), { replace, preventScrollReset: true });

  const filters: Filters = { ...fromUrl, search };
  return {
    filters,
    /** The search the list shows: it may trail the box by a frame while a long list re-renders. */
    deferredSearch: useDeferredValue(search),
    setSearch(next: string) {
      setSearchState(next);
      pending.current.push(next);
      navigate({ ...filters, search: next }, true);
    },
    setSort: (sort: SortKey) => navigate({ ...filters, sort }, false),
    setTag: (tag: string) => navigate({ ...filters, tag }, false),
  };
}
