import { robotsTxt } from "../../outputs/sitemap.ts";
import { SITE_URL } from "../lib/site-url.ts";

export function loader() {
  return new Response(robotsTxt(SITE_URL), { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
