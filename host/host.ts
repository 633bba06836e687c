import * as build from "virtual:react-router/server-build";
import { catalogue } from "../app/catalogue.server.ts";
import { prepareSiteSearch } from "../app/search.server.ts";
import { siteHandle } from "../catalogue/handle.ts";
import { fillTemplate } from "../catalogue/template.ts";
import { escapeXml } from "../catalogue/xml.ts";
import { SITE_ICON_FILES } from "../outputs/linked-files.ts";
import { absoluteLinks, type Publication } from "../services/federation/publish.ts";
import type { SiteIdentity } from "../services/federation/site-actor.ts";
import type { LinkingPage } from "../services/webmention/send.ts";
import { createHttpApp, type HttpOptions } from "./app.ts";

/** Mastodon shows four profile fields. */
const PROFILE_LINKS = 4;

function siteIdentity(siteUrl: string): SiteIdentity {
  const { site } = catalogue;
  return {
    handle: siteHandle(site),
    name: site.name,
    summary: site.description,
    icon: { path: SITE_ICON_FILES.touch, mediaType: "image/png" },
    links: site.menu
      .slice(0, PROFILE_LINKS)
      .map((link) => ({ name: link.label, url: new URL(link.path, siteUrl).href })),
  };
}

/** The essays, book notes, quotes and issues of this build, as followers receive them. */
function publications(siteUrl: string): Publication[] {
  const { writings, notes, quotes, updates, site } = catalogue;
  const { noteDescription } = site.sections.notes;
  const essays = writings.map((essay) => ({
    path: essay.path,
    type: "Article" as const,
    name: essay.name,
    html: absoluteLinks(essay.html, siteUrl),
  }));
  // Mastodon shows an Article as a bare link, so a book note is a Note: the owner's line on the book, then the review.
  const bookNotes = notes.map((note) => {
    const line =
      note.rating === null
        ? `${note.name}, ${note.author}`
        : fillTemplate(noteDescription, { title: note.name, author: note.author, rating: String(note.rating) });
    return {
      path: note.path,
      type: "Note" as const,
      name: note.name,
      html: `<p>${escapeXml(line)}</p>${absoluteLinks(note.html, siteUrl)}`,
    };
  });
  const quoteNotes = quotes.map((quote) => ({
    path: quote.path,
    type: "Note" as const,
    name: quote.note.name,
    html: `<blockquote>${absoluteLinks(quote.html, siteUrl)}</blockquote><p>— ${escapeXml(quote.attribution)}, <a href="${new URL(quote.note.path, siteUrl).href}">${escapeXml(quote.note.name)}</a></p>`,
  }));
  const issues = updates.map((issue) => ({
    path: issue.path,
    type: "Article" as const,
    name: issue.title,
    html: absoluteLinks(issue.html, siteUrl),
  }));
  return [...essays, ...bookNotes, ...quoteNotes, ...issues];
}

/** Each essay's page with the links its body makes, for the webmentions it sends. */
const linkingEssays = (siteUrl: string): LinkingPage[] =>
  catalogue.writings.map((essay) => ({
    url: new URL(essay.path, siteUrl).href,
    links: essay.links,
    html: essay.html,
  }));

/** The build's entry: React Router's server build and the host around it, one copy of every module. */
export function createHost(options: Omit<HttpOptions, "build">) {
  prepareSiteSearch();
  const { federation } = options.backend;
  federation.setIdentity(siteIdentity(options.siteUrl));
  const app = createHttpApp({ ...options, build });
  // Not awaited: it waits for this build's pages to be served, which starts after this returns.
  // `npm run dev` serves edits in progress: only a production build reaches followers.
  if (options.mode === "production") {
    void federation.publish(publications(options.siteUrl));
    void options.backend.webmentions.publish(linkingEssays(options.siteUrl));
  }
  return app;
}
