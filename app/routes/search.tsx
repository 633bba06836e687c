import { canonicalSearchQuery, searchRequest } from "../../catalogue/search-text.ts";
import { resultsStatus, type SearchPage } from "../../catalogue/site-search.ts";
import { cardPath } from "../../outputs/card.ts";
import { SearchPages, SearchResults } from "../components/SearchResults.tsx";
import { pageMeta, siteOf } from "../lib/meta.ts";
import type { RenderHandle } from "../lib/page-handle.ts";
import { searchEverything } from "../search.server.ts";
import type { Route } from "./+types/search";

export const handle: RenderHandle = { query: canonicalSearchQuery };

export function loader({ request }: Route.LoaderArgs) {
  // The last q and page win, as in the lists; a long query is cut, never refused.
  const { query, page } = searchRequest(new URL(request.url).searchParams);
  return { query, result: query ? searchEverything(query, page) : null };
}

const pageOf = (result: SearchPage | null) =>
  result && result.page > 1 ? ` (page ${result.page} of ${result.pages})` : "";

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.query ? `Search: ${loaderData.query}${pageOf(loaderData.result)}` : "Search",
    image: { path: cardPath("/"), alt: siteOf(matches).name },
    noindex: true,
  });

export default function Search({ loaderData: { query, result } }: Route.ComponentProps) {
  return (
    <div className="page search-page">
      <h1>Search</h1>
      <search>
        <form action="/search" method="get" className="search-bar">
          <label className="search-field">
            <span className="visually-hidden">Search the site</span>
            <input
              type="search"
              name="q"
              defaultValue={query}
              placeholder="Titles, authors, words from a review or an essay"
              autoComplete="off"
              enterKeyHint="search"
              data-search-field="page"
            />
          </label>
          <button type="submit" className="text-button">
            Search
          </button>
        </form>
      </search>
      <div data-search-results="page" data-query={query}>
        <p className="results" aria-live="polite">
          {result && resultsStatus(query, result)}
        </p>
        {/* Kept when hidden: the search module shows it again when the field is emptied. */}
        <p className="search-hint" hidden={query !== ""}>
          Find any book note, essay, newsletter issue, app or job by a few of its words.
        </p>
        {result && result.hits.length > 0 && <SearchResults hits={result.hits} />}
        {result && <SearchPages query={query} result={result} />}
      </div>
    </div>
  );
}
