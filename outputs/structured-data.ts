import type { Note, Site, Writing } from "../catalogue/schema.ts";
import { absoluteUrl } from "../catalogue/site-url.ts";

const CONTEXT = "https://schema.org";

export type JsonLd = { "@context": typeof CONTEXT; "@type": string; [key: string]: unknown };

const ld = (type: string, fields: object): JsonLd => ({ "@context": CONTEXT, "@type": type, ...fields });

const ownerAsAuthor = (name: string, siteUrl: string) => ({
  "@type": "Person",
  "@id": `${siteUrl}/#person`,
  name,
  url: `${siteUrl}/`,
});

type BookFields = { name: string; author: string; path: string };

const bookLd = (book: BookFields, siteUrl: string) => ({
  "@type": "Book",
  name: book.name,
  author: { "@type": "Person", name: book.author },
  url: absoluteUrl(siteUrl, book.path),
});

export function personLd(owner: Pick<Site, "name" | "description" | "social">, siteUrl: string): JsonLd {
  return ld("Person", {
    ...ownerAsAuthor(owner.name, siteUrl),
    description: owner.description,
    sameAs: owner.social.map((link) => link.url),
  });
}

export function bookReviewLd(
  note: Pick<Note, "name" | "author" | "date" | "rating" | "path" | "tags" | "shelf">,
  { owner, siteUrl, image }: { owner: string; siteUrl: string; image: string },
): JsonLd {
  const book = bookLd(note, siteUrl);
  return ld("Book", {
    ...book,
    image: absoluteUrl(siteUrl, image),
    genre: note.tags,
    ...(note.shelf === "read" || note.shelf === "did-not-finish"
      ? {
          review: {
            "@type": "Review",
            url: book.url,
            author: ownerAsAuthor(owner, siteUrl),
            datePublished: note.date,
            ...(note.rating === null
              ? {}
              : { reviewRating: { "@type": "Rating", ratingValue: note.rating, bestRating: 10, worstRating: 0 } }),
          },
        }
      : {}),
  });
}

export function blogPostingLd(
  writing: Pick<Writing, "name" | "date" | "time" | "path" | "tags" | "wordCount">,
  { owner, siteUrl, image, description }: { owner: string; siteUrl: string; image: string; description: string },
): JsonLd {
  const url = absoluteUrl(siteUrl, writing.path);
  const topics = writing.tags.filter((tag) => tag !== "Write");
  return ld("BlogPosting", {
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
  });
}

const listItems = <T>(items: readonly T[], fields: (item: T) => object) =>
  items.map((item, index) => ({ "@type": "ListItem", position: index + 1, ...fields(item) }));

export type Crumb = { name: string; path: string };

export function breadcrumbLd(crumbs: readonly Crumb[], siteUrl: string): JsonLd {
  return ld("BreadcrumbList", {
    itemListElement: listItems(crumbs, (crumb) => ({ name: crumb.name, item: absoluteUrl(siteUrl, crumb.path) })),
  });
}

export function bookListLd(name: string, path: string, books: readonly BookFields[], siteUrl: string): JsonLd {
  return ld("ItemList", {
    name,
    url: absoluteUrl(siteUrl, path),
    numberOfItems: books.length,
    itemListElement: listItems(books, (book) => ({ item: bookLd(book, siteUrl) })),
  });
}

export function quotationLd(
  quote: { text: string; path: string; attribution: string; note: BookFields },
  siteUrl: string,
): JsonLd {
  return ld("Quotation", {
    text: quote.text,
    url: absoluteUrl(siteUrl, quote.path),
    creator: { "@type": "Person", name: quote.note.author },
    isPartOf: bookLd(quote.note, siteUrl),
    citation: `${quote.note.name}, ${quote.attribution}`,
  });
}
