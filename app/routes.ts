import { index, type RouteConfig, route } from "@react-router/dev/routes";

/** Mirrors the route table of SPEC §2. */
export default [
  index("routes/home.tsx"),
  route("now", "routes/now.tsx"),
  route("about", "routes/about.tsx"),
  route("apps", "routes/apps.tsx"),
  route("apps/:slug", "routes/app.tsx"),
  route("work", "routes/work.tsx"),
  route("work/:slug", "routes/job.tsx"),
  route("notes", "routes/notes.tsx"),
  route("notes/:slug", "routes/note.tsx"),
  route("stats", "routes/stats.tsx"),
  route("write", "routes/write.tsx"),
  route("write/:slug", "routes/writing.tsx"),
  route("podcast", "routes/podcast.tsx"),
  route("videos", "routes/videos.tsx"),
  route("contact", "routes/contact.tsx"),
  route("updates", "routes/updates.tsx"),
  // The newsletter (issue 13): the links of its mails, and the issues sent so far.
  route("updates/confirm", "routes/updates-confirm.tsx"),
  route("updates/unsubscribe", "routes/updates-unsubscribe.tsx"),
  route("updates/:slug", "routes/update.tsx"),
  // Feeds, sitemap and robots.txt (issue 7): resource routes, prerendered into build/client.
  route("feeds/writings.atom", "routes/feed-writings.ts"),
  route("feeds/notes.atom", "routes/feed-notes.ts"),
  route("feeds/updates.atom", "routes/feed-updates.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  // The social card of every page that shares one (issue 10): PNG, prerendered like the feeds.
  route("cards/*", "routes/card.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
