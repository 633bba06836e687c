import { absoluteUrl } from "../../catalogue/site-url.ts";
import { noteImagePath } from "../../outputs/card.ts";
import { ATOM_CONTENT_TYPE, notesFeed } from "../../outputs/feeds.ts";
import { catalogue } from "../catalogue.server.ts";
import { SITE_URL } from "../lib/site-url.ts";

export function loader() {
  const feed = notesFeed(catalogue, SITE_URL, (note) => absoluteUrl(SITE_URL, noteImagePath(note)));
  return new Response(feed, { headers: { "Content-Type": ATOM_CONTENT_TYPE } });
}
