import { searchIndexFile } from "../../catalogue/site-search.ts";
import { catalogue } from "../catalogue.server.ts";

export function loader() {
  return new Response(searchIndexFile(catalogue), { headers: { "Content-Type": "application/json" } });
}
