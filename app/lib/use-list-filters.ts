import { useEffect, useRef } from "react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { NavigationType, useLocation, useNavigation, useNavigationType, useSearchParams } from "react-router";
import { type Filters, filtersFromQuery, filtersToQuery } from "../../catalogue/filters.ts";
import type { SortKey } from "../../catalogue/sort.ts";

// The URL query is the filters' one source of truth, so a filtered list can be shared. The pending URL is
// used because the router commits it a few tasks after the keystroke, and the list need not wait.
export function useListFilters() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const pending = useNavigation().location;
  const filters = filtersFromQuery(
    pending?.pathname === location.pathname ? new URLSearchParams(pending.search) : params,
  );
  const searchBox = useRef<HTMLInputElement>(null);
  const navigationType = useNavigationType();
  const shownLocation = useRef(location.key);

  useEffect(() => {
    // On the first render the box already shows the page's query, or what was typed before hydration.
    if (shownLocation.current === location.key) return;
    shownLocation.current = location.key;
    if (navigationType !== NavigationType.Replace && searchBox.current) searchBox.current.value = filters.search;
  }, [location.key, navigationType, filters.search]);

  const navigate = (change: Partial<Filters>, replace: boolean) => {
    // The router may trail fast typing by a few keys: the box holds the search being made.
    const search = searchBox.current?.value ?? filters.search;
    setParams(new URLSearchParams(filtersToQuery({ ...filters, search, ...change })), {
      replace,
      preventScrollReset: true,
      flushSync: replace,
    });
  };

  return {
    filters,
    searchBox,
    setSearch: (search: string) => navigate({ search }, true),
    setSort: (sort: SortKey) => navigate({ sort }, false),
    setTag: (tag: string) => navigate({ tag }, false),
  };
}

// The filters live in the query; changing them needs no new data from the server.
export function listShouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;
}
