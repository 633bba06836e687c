import { ATOM_CONTENT_TYPE, updatesFeed } from "../../outputs/feeds.ts";
import { catalogue } from "../catalogue.server.ts";
import { SITE_URL } from "../lib/site-url.ts";

export function loader() {
  return new Response(updatesFeed(catalogue, SITE_URL), { headers: { "Content-Type": ATOM_CONTENT_TYPE } });
}
