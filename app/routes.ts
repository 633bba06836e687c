import { index, type RouteConfig, route } from "@react-router/dev/routes";
import { REMOTE_FOLLOW_PATH } from "../catalogue/handle.ts";
import { SEARCH_INDEX_PATH } from "../catalogue/site-search.ts";
import { FEEDS, SITE_ICON_FILES } from "../outputs/linked-files.ts";

export default [
  index("routes/home.tsx"),
  route("now", "routes/now.tsx"),
  route("about", "routes/about.tsx"),
  route("apps", "routes/apps.tsx"),
  route("apps/:slug", "routes/apps.$slug.tsx"),
  route("work", "routes/work.tsx"),
  route("work/:slug", "routes/work.$slug.tsx"),
  route("notes", "routes/notes.tsx"),
  route("notes/shelves", "routes/notes.shelves.tsx"),
  route("notes/:slug", "routes/notes.$slug.tsx"),
  route("stats", "routes/stats.tsx"),
  route("stats/:year", "routes/stats.$year.tsx"),
  route("quotes", "routes/quotes.tsx"),
  route("quotes/:id", "routes/quotes.$id.tsx"),
  route("write", "routes/write.tsx"),
  route("write/:slug", "routes/write.$slug.tsx"),
  route("podcast", "routes/podcast.tsx"),
  route("videos", "routes/videos.tsx"),
  route("contact", "routes/contact.tsx"),
  route("search", "routes/search.tsx"),
  route("updates", "routes/updates.tsx"),
  route("updates/confirm", "routes/updates.confirm.tsx"),
  route("updates/unsubscribe", "routes/updates.unsubscribe.tsx"),
  route("updates/:slug", "routes/updates.$slug.tsx"),
  route(REMOTE_FOLLOW_PATH.slice(1), "routes/follow.tsx"),
  route("replies/confirm", "routes/replies.confirm.tsx"),
  ...[...Object.values(FEEDS).map((feed) => feed.path), "/sitemap.xml", "/robots.txt", SEARCH_INDEX_PATH].map((path) =>
    route(path.slice(1), "routes/files.ts", { id: path }),
  ),
  route("cards/*", "routes/cards.$.ts"),
  route("covers/*", "routes/covers.$.ts"),
  route(SITE_ICON_FILES.svg.slice(1), "routes/site-icon.ts", { id: "site-icon-svg" }),
  route(SITE_ICON_FILES.touch.slice(1), "routes/site-icon.ts", { id: "site-icon-png" }),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
