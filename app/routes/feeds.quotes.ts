import { ATOM_CONTENT_TYPE, quotesFeed } from "../../outputs/feeds.ts";
import { catalogue } from "../catalogue.server.ts";
import { SITE_URL } from "../lib/site-url.ts";

/** /feeds/quotes.atom: the Atom feed of the quotes of the newest notes, prerendered at build time. */
export function loader() {
  return new Response(quotesFeed(catalogue, SITE_URL), { headers: { "Content-Type": ATOM_CONTENT_TYPE } });
}
