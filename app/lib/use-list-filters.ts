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
  const lastWritten = useRef(fromUrl.search);

  // Back and Forward change the URL under us: take the search from there.
  useEffect(() => {
    if (fromUrl.search !== lastWritten.current) {
      lastWritten.current = fromUrl.search;
      setSearchState(fromUrl.search);
    }
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
      lastWritten.current = next;
      navigate({ ...filters, search: next }, true);
    },
    setSort: (sort: SortKey) => navigate({ ...filters, sort }, false),
    setTag: (tag: string) => navigate({ ...filters, tag }, false),
  };
}
