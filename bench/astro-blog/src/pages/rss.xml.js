import { getCollection } from "astro:content";
import rss from "@astrojs/rss";
import { SITE_DESCRIPTION, SITE_TITLE } from "../site.mjs";

export async function GET(context) {
  return rss({
    title: SITE_TITLE,
    description: SITE_DESCRIPTION,
    site: context.site,
    items: (await getCollection("blog")).map((post) => ({ ...post.data, link: `/blog/${post.id}/` })),
  });
}
