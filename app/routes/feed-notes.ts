import { noteImagePath } from "../../catalogue/card";
import { ATOM_CONTENT_TYPE, notesFeed } from "../../catalogue/feeds";
import { absoluteUrl } from "../../catalogue/site-url";
import { catalogue } from "../catalogue.server";
import { SITE_URL } from "../lib/site-url";

/** /feeds/notes.atom: the Atom feed of the newest book notes, prerendered at build time. */
export function loader() {
  const feed = notesFeed(catalogue, SITE_URL, (note) => absoluteUrl(SITE_URL, noteImagePath(note)));
  return new Response(feed, { headers: { "Content-Type": ATOM_CONTENT_TYPE } });
}
