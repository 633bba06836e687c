// Its own module: every page links the feeds and icons, and the browser must not load their writers for that.
export const FEEDS = {
  writings: { path: "/feeds/writings.atom", title: "Writings", listPath: "/write" },
  notes: { path: "/feeds/notes.atom", title: "Book notes", listPath: "/notes" },
  updates: { path: "/feeds/updates.atom", title: "Updates", listPath: "/updates" },
  quotes: { path: "/feeds/quotes.atom", title: "Quotes", listPath: "/quotes" },
} as const;

export const SITE_ICON_FILES = { svg: "/favicon.svg", touch: "/apple-touch-icon.png" } as const;

/** Where other sites send webmentions, announced by every page (W3C discovery). */
export const WEBMENTION_PATH = "/webmention";
