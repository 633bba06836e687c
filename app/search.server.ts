/**
 * The site's search on the server, for /search without JavaScript: the same documents, options
 * and ranking as the index file the browser fetches (catalogue/site-search.ts), built in memory
 * once, when the server loads (about 0.1 s for the sample, 1.7 s at 10,000 notes), so that no
 * request waits for it.
 */
import searchAssets from "virtual:search-assets";
import { buildSearchIndex, searchDocuments, searchSite } from "../catalogue/site-search.ts";
import { catalogue } from "./catalogue.server.ts";

/** How many results the results page shows at most. */
export const RESULTS_PAGE_LIMIT = 50;

const index = buildSearchIndex(searchDocuments(catalogue));

export function searchEverything(query: string) {
  return searchSite(index, query, RESULTS_PAGE_LIMIT);
}

/** The URLs of the search module and index, which the page shell reads from its own attributes. */
export { searchAssets };
