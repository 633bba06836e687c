import { searchIndexFile } from "../../catalogue/site-search.ts";
import { catalogue } from "../catalogue.server.ts";

/** /search-index.json: what the browser's search looks in, the same for every page. */
export function loader() {
  return new Response(searchIndexFile(catalogue), { headers: { "Content-Type": "application/json" } });
}
