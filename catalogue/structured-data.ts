/**
 * schema.org structured data (JSON-LD) for search engines: the owner as a Person, a note as a Book
 * with the owner's Review and Rating (0–10), a writing as a BlogPosting, and the breadcrumb of an
 * inner page as a BreadcrumbList. Pure: app/lib/meta.ts puts them in the page head.
 */
import type { Note, Site, Writing } from "./schema.ts";
import { absoluteUrl } from "./site-url.ts";

const CONTEXT = "https://schema.org";

export type JsonLd = { "@context": typeof CONTEXT; "@type": string; [key: string]: unknown };

/** The owner's node id, so that every page's Person (and every author) is one and the same. */
export const personId = (siteUrl: string) => `${siteUrl}/#person`;

type Owner = Pick<Site, "name" | "description" | "social">;

export function personLd(owner: Owner, siteUrl: string): JsonLd {
  return {
    "@context": CONTEXT,
    "@type": "Person",
    "@id": personId(siteUrl),
    name: owner.name,
    url: `${siteUrl}/`,
    description: owner.description,
    sameAs: owner.social.map((link) => link.url),
  };
}

/** The owner as an author, by reference to the Person of the home page. */
const ownerAsAuthor = (name: string, siteUrl: string) => ({
  "@type": "Person",
  "@id": personId(siteUrl),
  name,
  url: `${siteUrl}/`,
});

type NoteFields = Pick<Note, "name" | "author" | "date" | "rating" | "path" | "tags" | "shelf">;

/**
 * A book note: the Book, reviewed by the owner with a rating on the site's 0–10 scale. A book read
 * or given up has the owner's review (rated when it has a rating); one being read or wanted has none.
 */
export function bookReviewLd(
  note: NoteFields,
  { owner, siteUrl, image, reviewBody }: { owner: string; siteUrl: string; image: string; reviewBody?: string },
): JsonLd {
  const url = absoluteUrl(siteUrl, note.path);
  return {
    "@context": CONTEXT,
    "@type": "Book",
    name: note.name,
    author: { "@type": "Person", name: note.author },
    image: absoluteUrl(siteUrl, image),
    url,
    genre: note.tags,
    ...(note.shelf === "read" || note.shelf === "did-not-finish"
      ? {
          review: {
            "@type": "Review",
            url,
            author: ownerAsAuthor(owner, siteUrl),
            datePublished: note.date,
            ...(note.rating === null
              ? {}
              : { reviewRating: { "@type": "Rating", ratingValue: note.rating, bestRating: 10, worstRating: 0 } }),
            ...(reviewBody ? { reviewBody } : {}),
          },
        }
      : {}),
  };
}

type WritingFields = Pick<Writing, "name" | "date" | "time" | "path" | "tags" | "wordCount">;

export function blogPostingLd(
  writing: WritingFields,
  { owner, siteUrl, image, description }: { owner: string; siteUrl: string; image: string; description: string },
): JsonLd {
  const url = absoluteUrl(siteUrl, writing.path);
  const topics = writing.tags.filter((tag) => tag !== "Write");
  return {
    "@context": CONTEXT,
    "@type": "BlogPosting",
    headline: writing.name,
    description,
    datePublished: writing.date,
    dateModified: writing.date,
    author: ownerAsAuthor(owner, siteUrl),
    url,
    mainEntityOfPage: url,
    image: absoluteUrl(siteUrl, image),
    wordCount: writing.wordCount,
    ...(writing.time > 0 ? { timeRequired: `PT${writing.time}M` } : {}),
    // Every writing is tagged Write (catalogue/schema.ts); its other tags say what it is about.
    ...(topics.length > 0 ? { keywords: topics.join(", ") } : {}),
  };
}

export type Crumb = { name: string; path: string };

export function breadcrumbLd(crumbs: readonly Crumb[], siteUrl: string): JsonLd {
  return {
    "@context": CONTEXT,
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: absoluteUrl(siteUrl, crumb.path),
    })),
  };
}
