/**
 * The site's search on the server, for /search without JavaScript: the same documents, options
 * and ranking as the index file the browser fetches (catalogue/site-search.ts), built in memory
 * once (about 0.1 s for the sample, 1.7 s at 10,000 notes). The server and its render workers
 * build it when they start, so that no request waits for it; the build's prerendering, which
 * renders /search without a query, never does.
 */
import searchAssets from "virtual:search-assets";
import { buildSearchIndex, type SiteSearchIndex, searchDocuments, searchSite } from "../catalogue/site-search.ts";
import { catalogue } from "./catalogue.server.ts";

/** How many results the results page shows at most. */
export const RESULTS_PAGE_LIMIT = 50;

let index: SiteSearchIndex | undefined;

export function prepareSiteSearch(): SiteSearchIndex {
  index ??= buildSearchIndex(searchDocuments(catalogue));
  return index;
}

export function searchEverything(query: string) {
  return searchSite(prepareSiteSearch(), query, RESULTS_PAGE_LIMIT);
}

/** The URLs of the search module and index, which the page shell reads from its own attributes. */
export { searchAssets };
