import { index, type RouteConfig, route } from "@react-router/dev/routes";

/**
 * Every URL of the site and the module that answers it. A module is named after its URL: dots
 * separate segments and `$slug` is the item's slug; `home` answers `/` and `not-found` any other path.
 */
export default [
  index("routes/home.tsx"),
  route("now", "routes/now.tsx"),
  route("about", "routes/about.tsx"),
  route("apps", "routes/apps.tsx"),
  route("apps/:slug", "routes/apps.$slug.tsx"),
  route("work", "routes/work.tsx"),
  route("work/:slug", "routes/work.$slug.tsx"),
  route("notes", "routes/notes.tsx"),
  route("notes/:slug", "routes/notes.$slug.tsx"),
  route("stats", "routes/stats.tsx"),
  route("write", "routes/write.tsx"),
  route("write/:slug", "routes/write.$slug.tsx"),
  route("podcast", "routes/podcast.tsx"),
  route("videos", "routes/videos.tsx"),
  route("contact", "routes/contact.tsx"),
  route("search", "routes/search.tsx"),
  route("updates", "routes/updates.tsx"),
  // The newsletter's mail links (answered per visitor), then the issues sent so far.
  route("updates/confirm", "routes/updates.confirm.tsx"),
  route("updates/unsubscribe", "routes/updates.unsubscribe.tsx"),
  route("updates/:slug", "routes/updates.$slug.tsx"),
  // Resource routes, prerendered into build/client like the pages.
  route("feeds/writings.atom", "routes/feeds.writings.ts"),
  route("feeds/notes.atom", "routes/feeds.notes.ts"),
  route("feeds/updates.atom", "routes/feeds.updates.ts"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),
  // The share card of every page that has one: a PNG drawn at build time.
  route("cards/*", "routes/cards.$.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
