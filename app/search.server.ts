/**
 * The site's search on the server, for /search without JavaScript: the same documents, options
 * and ranking as the index file the browser fetches (catalogue/site-search.ts), built in memory
 * on the first search and kept.
 */
import searchAssets from "virtual:search-assets";
import { buildSearchIndex, type SiteSearchIndex, searchDocuments, searchSite } from "../catalogue/site-search.ts";
import { catalogue } from "./catalogue.server.ts";

/** How many results the results page shows at most. */
export const RESULTS_PAGE_LIMIT = 50;

let index: SiteSearchIndex | undefined;

export function searchEverything(query: string) {
  index ??= buildSearchIndex(searchDocuments(catalogue));
  return searchSite(index, query, RESULTS_PAGE_LIMIT);
}

/** The URLs of the search module and index, which the page shell reads from its own attributes. */
export { searchAssets };
