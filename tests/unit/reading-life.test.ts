/**
 * The pure parts of the reading life: quotes found in a note's body, the history of a re-read
 * book, the books whose rating moved, the essays that mention a note, a year in books, the reading
 * goal, and the quote card (cut with an ellipsis, drawn 1200x630).
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue } from "../../catalogue/load.ts";
import { deriveQuotes } from "../../catalogue/quotes.ts";
import { bookYears, changedMinds, currentGoal, goalOfYear, yearInBooks } from "../../catalogue/reading-life.ts";
import { CARD_QUOTE_LIMIT, cardQuoteText } from "../../outputs/card.ts";
import { quoteCardPng } from "../../outputs/card-image.ts";

const catalogue = buildCatalogue(readContentFiles(join(import.meta.dirname, "../fixtures")));
const note = (slug: string) => {
  const found = catalogue.notes.find((candidate) => candidate.slug === slug);
  if (!found) throw new Error(`no fixture note ${slug}`);
  return found;
};

describe("quotes", () => {
  test("a blockquote followed by a dash line is a quote, with its number, anchor, page and attribution", () => {
    const { quotes, html, reviewed } = deriveQuotes(
      "Review first.\n\n> One line,\n> two lines.\n\n— p. 42\n\n> Second.\n\n—   Book II, 1",
      "a-book",
    );
    expect(quotes).toEqual([
      {
        id: "a-book-1",
        number: 1,
        anchor: "quote-1",
        path: "/quotes/a-book-1",
        text: "One line,\ntwo lines.",
        html: "<p>One line,\ntwo lines.</p>",
        attribution: "p. 42",
      },
      expect.objectContaining({ id: "a-book-2", anchor: "quote-2", text: "Second.", attribution: "Book II, 1" }),
    ]);
    expect(reviewed).toBe(true);
    expect(html).toContain('<figure id="quote-1" class="quote"><blockquote><p>One line,');
    expect(html).toContain('<figcaption>— p. 42 · <a href="/quotes/a-book-1">Share this quote</a></figcaption>');
    expect(html).not.toContain("— Book II, 1</p>");
  });

  test("a blockquote without a dash line stays a blockquote; a body of quotes alone is no review", () => {
    const plain = deriveQuotes("> Just a blockquote.\n\nAnd a paragraph — with a dash.", "b");
    expect(plain.quotes).toEqual([]);
    expect(plain.html).toContain("<blockquote>");
    expect(plain.reviewed).toBe(true);
    expect(deriveQuotes("> Only a quote.\n\n— p. 1", "c").reviewed).toBe(false);
    expect(deriveQuotes("", "d")).toEqual({ html: "", quotes: [], reviewed: false });
  });

  test("the catalogue lists every quote, newest note first, with its note", () => {
    expect(catalogue.quotes.map((quote) => quote.id)).toEqual([
      "the-glass-orchard-2-1",
      "the-glass-orchard-1",
      "the-glass-orchard-2",
    ]);
    expect(catalogue.quotes[1]?.note).toMatchObject({ name: "The Glass Orchard", path: "/notes/the-glass-orchard" });
  });
});

describe("readings of one book", () => {
  test("every reading carries the whole history, oldest first; a book read once has none", () => {
    const history = note("the-glass-orchard-2").readings;
    expect(history).toEqual(note("the-glass-orchard").readings);
    expect(history.map(({ slug, rating }) => [slug, rating])).toEqual([
      ["the-glass-orchard", 6.2],
      ["the-glass-orchard-2", 8.9],
    ]);
    expect(note("germinal").readings).toEqual([]);
  });

  test("a wanted book is no reading", () => {
    const files = readContentFiles(join(import.meta.dirname, "../fixtures"));
    const wanted = {
      path: "content/notes/the-glass-orchard-3.md",
      text: '---\nname: "The Glass Orchard"\nauthor: "Mira Castell"\nshelf: want\ndate: "1/1/25"\ntime: 0\n---\n',
    };
    const withWanted = buildCatalogue([...files, wanted]);
    expect(withWanted.notes.find((book) => book.slug === "the-glass-orchard")?.readings).toHaveLength(2);
  });

  test("books I changed my mind about: a move of a point or more, first to latest rated reading, largest first", () => {
    const book = (name: string, ratings: (number | null)[]) => ({
      name,
      author: "A",
      readings: ratings.map((rating, index) => ({
        slug: `${name}-${index + 1}`,
        path: `/notes/${name}-${index + 1}`,
        date: `202${index}-01-01`,
        shelf: rating === null ? ("did-not-finish" as const) : ("read" as const),
        rating,
      })),
    });
    const changes = changedMinds([
      book("small", [7.4, 8.3]),
      book("up", [6, null, 8.5]),
      book("down", [9, 5.9]),
      book("exact", [7.4, 8.4]),
      book("once", [2]),
    ]);
    expect(changes.map(({ name, change }) => [name, change])).toEqual([
      ["down", -3.1],
      ["up", 2.5],
      ["exact", 1],
    ]);
    expect(changedMinds(catalogue.notes).map((change) => change.name)).toEqual(["The Glass Orchard"]);
  });
});

test("a note lists the essays that link to it, with or without an anchor", () => {
  expect(note("the-glass-orchard-2").mentionedIn).toEqual([
    { path: "/write/why-me", name: "Why Me?", date: "2023-07-04" },
  ]);
  expect(note("deep-work").mentionedIn.map((mention) => mention.path)).toEqual(["/write/why-me"]);
  expect(note("germinal").mentionedIn).toEqual([]);
});

describe("a year in books", () => {
  test("the years with a book read or given up, oldest first", () => {
    expect(bookYears(catalogue.notes)).toEqual(["2014", "2015", "2016", "2017", "2018", "2019", "2022", "2024"]);
  });

  test("the books read that year in reading order, their count, time, average, re-reads and books given up", () => {
    const year = yearInBooks(catalogue.notes, "2024");
    expect(year.read.map((book) => book.slug)).toEqual(["deep-work", "the-glass-orchard-2"]);
    expect(year.count).toBe(2);
    expect(year.time.totalMinutes).toBe(45 + 110);
    expect(year.averageRating).toBe(6.2);
    expect(year.top.map((book) => book.slug)).toEqual(["the-glass-orchard-2", "deep-work"]);
    expect(year.reReads.map((book) => book.slug)).toEqual(["the-glass-orchard-2"]);
    expect(year.didNotFinish.map((book) => book.slug)).toEqual(["a-winter-almanac"]);
  });
});

describe("the reading goal", () => {
  const goals = { "2023": 10, "2024": 4 };

  test("a year's goal counts the books read to the end that year", () => {
    expect(goalOfYear(goals, catalogue.notes, "2024")).toEqual({ year: "2024", books: 4, done: 2 });
    expect(goalOfYear(goals, catalogue.notes, "2016")).toBeNull();
  });

  test("the current goal is the one of the year the page is made in, never an earlier year's", () => {
    expect(currentGoal(goals, catalogue.notes, new Date(2024, 10, 20))).toEqual({ year: "2024", books: 4, done: 2 });
    expect(currentGoal(goals, catalogue.notes, new Date(2023, 0, 1))).toMatchObject({ year: "2023", books: 10 });
    expect(currentGoal(goals, catalogue.notes, new Date(2026, 10, 20))).toBeNull();
  });
});

describe("the quote card", () => {
  test("a long quote is cut at a word with an ellipsis; a short one is kept whole", () => {
    expect(cardQuoteText("Short  and\nwhole.")).toBe("Short and whole.");
    const long = "word ".repeat(200);
    const cut = cardQuoteText(long);
    expect(cut.length).toBeLessThanOrEqual(CARD_QUOTE_LIMIT);
    expect(cut.endsWith("word…")).toBe(true);
  });

  test("is a 1200x630 PNG, however long the quote", async () => {
    for (const text of ["Brief.", "A much longer invented passage that keeps going. ".repeat(30)]) {
      const png = await quoteCardPng({
        text,
        book: "The Glass Orchard",
        author: "Mira Castell",
        attribution: "p. 12",
        site: "owner.example",
      });
      expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    }
  });
});
