import { sitemapEntries, sitemapXml } from "../../catalogue/sitemap";
import { catalogue } from "../catalogue.server";
import { SITE_URL } from "../lib/site-url";

/** /sitemap.xml: every page of the site, prerendered at build time. */
export function loader() {
  return new Response(sitemapXml(sitemapEntries(catalogue), SITE_URL), {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
}
