import { ATOM_CONTENT_TYPE, writingsFeed } from "../../catalogue/feeds";
import { catalogue } from "../catalogue.server";
import { SITE_URL } from "../lib/site-url";

/** /feeds/writings.atom: the Atom feed of the newest writings, prerendered at build time. */
export function loader() {
  return new Response(writingsFeed(catalogue, SITE_URL), { headers: { "Content-Type": ATOM_CONTENT_TYPE } });
}
