/** schema.org JSON-LD: Person, Book with Review and Rating, BlogPosting, BreadcrumbList. */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue } from "../../catalogue/load.ts";
import { blogPostingLd, bookReviewLd, breadcrumbLd, personLd } from "../../outputs/structured-data.ts";

const catalogue = buildCatalogue(readContentFiles(join(import.meta.dirname, "../fixtures")));
const SITE = "https://owner.example";
const owner = { "@type": "Person", "@id": `${SITE}/#person`, name: "Test Owner", url: `${SITE}/` };

describe("structured data", () => {
  test("a Person has the name, url, description and the social links as sameAs", () => {
    const person = personLd(catalogue.site, SITE);
    expect(person).toEqual({
      "@context": "https://schema.org",
      "@type": "Person",
      "@id": `${SITE}/#person`,
      name: "Test Owner",
      url: `${SITE}/`,
      description: catalogue.site.description,
      sameAs: ["https://www.youtube.com/@test-owner", "https://github.com/test-owner"],
    });
    expect(JSON.parse(JSON.stringify(person))).toEqual(person);
  });

  test("a Book names the book and its author, with the owner's Review rated on the 0–10 scale", () => {
    const note = catalogue.notes.find((book) => book.slug === "atomic-habits");
    if (!note) throw new Error("fixture note missing");
    const book = bookReviewLd(note, { owner: "Test Owner", siteUrl: SITE, image: "/covers/atomic-habits.png" });
    expect(book).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Book",
      name: note.name,
      author: { "@type": "Person", name: note.author },
      image: `${SITE}/covers/atomic-habits.png`,
      url: `${SITE}/notes/atomic-habits`,
      review: {
        "@type": "Review",
        author: owner,
        datePublished: note.date,
        reviewRating: { "@type": "Rating", ratingValue: note.rating, bestRating: 10, worstRating: 0 },
      },
    });
  });

  test("a BlogPosting has the headline, dates, author, url, word count and reading time", () => {
    const writing = catalogue.writings.find((item) => item.slug === "fear");
    if (!writing) throw new Error("fixture writing missing");
    const post = blogPostingLd(writing, {
      owner: "Test Owner",
      siteUrl: SITE,
      image: "/cards/write/fear.png",
      description: "d",
    });
    expect(post).toMatchObject({
      "@type": "BlogPosting",
      headline: writing.name,
      datePublished: writing.date,
      author: owner,
      url: `${SITE}/write/fear`,
      mainEntityOfPage: `${SITE}/write/fear`,
      image: `${SITE}/cards/write/fear.png`,
      wordCount: writing.wordCount,
      timeRequired: `PT${writing.time}M`,
    });
    expect(post.wordCount).toBeGreaterThan(0);
  });

  test("a BreadcrumbList has one ListItem per crumb, with positions from 1 and absolute URLs", () => {
    expect(
      breadcrumbLd(
        [
          { name: "Home", path: "/" },
          { name: "Notes", path: "/notes" },
          { name: "Deep Work", path: "/notes/deep-work" },
        ],
        SITE,
      ).itemListElement,
    ).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: `${SITE}/` },
      { "@type": "ListItem", position: 2, name: "Notes", item: `${SITE}/notes` },
      { "@type": "ListItem", position: 3, name: "Deep Work", item: `${SITE}/notes/deep-work` },
    ]);
  });
});
