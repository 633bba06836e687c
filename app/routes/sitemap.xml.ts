import { sitemapEntries, sitemapXml } from "../../outputs/sitemap.ts";
import { catalogue } from "../catalogue.server.ts";
import { SITE_URL } from "../lib/site-url.ts";

export function loader() {
  return new Response(sitemapXml(sitemapEntries(catalogue), SITE_URL), {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
}
