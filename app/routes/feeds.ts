import { absoluteUrl } from "../../catalogue/site-url.ts";
import { noteImagePath } from "../../outputs/card.ts";
import { FEEDS } from "../../outputs/feed-list.ts";
import { ATOM_CONTENT_TYPE, notesFeed, quotesFeed, updatesFeed, writingsFeed } from "../../outputs/feeds.ts";
import { catalogue, notFound } from "../catalogue.server.ts";
import { canonicalPath } from "../lib/page-handle.ts";
import { SITE_URL } from "../lib/site-url.ts";
import type { Route } from "./+types/feeds";

const FEED_BY_PATH: Record<string, () => string> = {
  [FEEDS.writings.path]: () => writingsFeed(catalogue, SITE_URL),
  [FEEDS.notes.path]: () => notesFeed(catalogue, SITE_URL, (note) => absoluteUrl(SITE_URL, noteImagePath(note))),
  [FEEDS.updates.path]: () => updatesFeed(catalogue, SITE_URL),
  [FEEDS.quotes.path]: () => quotesFeed(catalogue, SITE_URL),
};

export function loader({ request }: Route.LoaderArgs) {
  const feed = FEED_BY_PATH[canonicalPath(new URL(request.url).pathname)] ?? notFound();
  return new Response(feed(), { headers: { "Content-Type": ATOM_CONTENT_TYPE } });
}
