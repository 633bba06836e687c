/** The sort orders, the search predicate and the notes list filters, on the fixture notes. */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadCatalogue } from "../../catalogue/disk.ts";
import {
  applyFilters,
  DEFAULT_FILTERS,
  type Filters,
  filterFields,
  filtersFromQuery,
  filtersToQuery,
  isNarrowed,
} from "../../catalogue/filters.ts";
import { matchesSearch } from "../../catalogue/search.ts";
import { comparators, DEFAULT_SORT, isSortKey, SORT_KEYS, type Sortable, sortItems } from "../../catalogue/sort.ts";

const catalogue = loadCatalogue(join(import.meta.dirname, "../fixtures"));
/**
 * The orders below were worked out by hand on the fixture's first eight books; the books the
 * shelves, quotes and re-reading tests added are left out so they still hold (the unrated
 * did-not-finish note's place is tested on its own).
 */
const ADDED_BOOKS = ["The Glass Orchard", "A Winter Almanac"];
const notes = catalogue.listedNotes.filter((note) => !ADDED_BOOKS.includes(note.name));
const slugs = (items: readonly { slug: string }[]) => items.map((item) => item.slug);
const names = (items: readonly { name: string }[]) => items.map((item) => item.name);
const item = (name: string, fields: Partial<Sortable> = {}): Sortable => ({ name, date: "2020-01-01", ...fields });

describe("sort orders", () => {
  test("date sorts newest first and is the default", () => {
    expect(DEFAULT_SORT).toBe("date");
    expect(DEFAULT_FILTERS.sort).toBe("date");
    const sorted = sortItems(notes, "date");
    expect(slugs(sorted)).toEqual([
      "deep-work",
      "the-four-agreements-2",
      "atomic-habits",
      "12-rules-for-life",
      "the-four-agreements",
      "germinal",
      "all-about-love",
      "mans-search-for-meaning",
    ]);
  });

  test("items of one date are ordered by title", () => {
    const sorted = sortItems([item("b", { date: "2020-01-01" }), item("a"), item("c", { date: "2021-01-01" })], "date");
    expect(names(sorted)).toEqual(["c", "a", "b"]);
  });

  test("releaseDate sorts newest release first; items with no release come last", () => {
    const withRelease = notes.filter((book) => book.releaseDate);
    expect(slugs(sortItems(withRelease, "releaseDate"))).toEqual([
      "deep-work",
      "the-four-agreements-2",
      "atomic-habits",
    ]);
    const sorted = sortItems(
      [
        item("none", { releaseDate: "" }),
        item("old", { releaseDate: "2019-12-05" }),
        item("new", { releaseDate: "2024-03-01" }),
      ],
      "releaseDate",
    );
    expect(names(sorted)).toEqual(["new", "old", "none"]);
  });

  test("title compares as text A to Z, ignoring case and accents, numbers in numeric order", () => {
    expect(names(sortItems(notes, "title"))).toEqual([
      "12 Rules for Life",
      "All About Love",
      "Atomic Habits",
      "Deep Work",
      "Germinal",
      "Man's Search for Meaning",
      "The Four Agreements",
      "The Four Agreements",
    ]);
    const sorted = sortItems(
      [item("cherry"), item("Banana"), item("Ångström"), item("apple"), item("1984"), item("12 Rules")],
      "title",
    );
    expect(names(sorted)).toEqual(["12 Rules", "1984", "Ångström", "apple", "Banana", "cherry"]);
  });

  test("author compares as text A to Z, ignoring case and accents; ties by title", () => {
    expect(sortItems(notes, "author").map((book) => book.author)).toEqual([
      "bell hooks",
      "Cal Newport",
      "Don Miguel Ruiz",
      "Don Miguel Ruiz",
      "Émile Zola",
      "James Clear",
      "Jordan B. Peterson",
      "Viktor E. Frankl",
    ]);
    const sorted = sortItems(
      [
        item("Z", { author: "Émile" }),
        item("Y", { author: "emile" }),
        item("X", { author: "Eve" }),
        item("W", { author: "Ed" }),
      ],
      "author",
    );
    expect(names(sorted)).toEqual(["W", "Y", "Z", "X"]);
  });

  test("an unrated note (a book given up) sorts after every rated one, even one rated 0", () => {
    const sorted = sortItems(
      [item("Unrated", { rating: null }), item("Zero", { rating: 0 }), item("Nine", { rating: 9 })],
      "rating",
    );
    expect(names(sorted)).toEqual(["Nine", "Zero", "Unrated"]);
    expect(slugs(sortItems(catalogue.listedNotes, "rating")).at(-1)).toBe("a-winter-almanac");
  });

  test("rating sorts highest first; equal ratings by title", () => {
    expect(sortItems(notes, "rating").map((book) => [book.rating, book.name])).toEqual([
      [9.6, "Germinal"],
      [9.2, "Man's Search for Meaning"],
      [8.7, "All About Love"],
      [8.7, "Atomic Habits"],
      [8.4, "The Four Agreements"],
      [8.1, "The Four Agreements"],
      [7.5, "12 Rules for Life"],
      [3.4, "Deep Work"],
    ]);
  });

  test("time sorts shortest first and leaves out unknown times (0)", () => {
    const sorted = sortItems(notes, "time");
    expect(sorted.map((book) => [book.time, book.slug])).toEqual([
      [30, "all-about-love"],
      [45, "deep-work"],
      [45, "mans-search-for-meaning"],
      [60, "the-four-agreements"],
      [90, "germinal"],
      [109, "atomic-habits"],
      [179, "12-rules-for-life"],
    ]);
    expect(slugs(sorted)).not.toContain("the-four-agreements-2");
    expect(sortItems([item("a", { time: 0 }), item("b")], "time")).toEqual([]);
  });

  test("only the time sort leaves items out", () => {
    for (const key of SORT_KEYS) {
      expect(sortItems(notes, key), key).toHaveLength(key === "time" ? 7 : 8);
    }
  });

  test("every comparator is antisymmetric and calls an item equal to itself", () => {
    const sign = (value: number) => (value > 0 ? 1 : value < 0 ? -1 : 0);
    for (const key of SORT_KEYS) {
      for (const a of notes) {
        expect(comparators[key](a, a), key).toBe(0);
        for (const b of notes) {
          expect(sign(comparators[key](a, b)), `${key} ${a.slug} ${b.slug}`).toBe(-sign(comparators[key](b, a)) || 0);
        }
      }
    }
  });

  test("items equal under a sort keep their input order (a re-read and its first read)", () => {
    expect(slugs(sortItems(notes, "title")).slice(-2)).toEqual(["the-four-agreements-2", "the-four-agreements"]);
    expect(slugs(sortItems([...notes].reverse(), "title")).slice(-2)).toEqual([
      "the-four-agreements",
      "the-four-agreements-2",
    ]);
  });

  test("sortItems returns a sorted copy and leaves its input alone", () => {
    const input = [...notes];
    const sorted = sortItems(input, "title");
    expect(sorted).not.toBe(input);
    expect(input).toEqual(notes);
  });

  test("isSortKey accepts the sort keys only", () => {
    for (const key of SORT_KEYS) expect(isSortKey(key)).toBe(true);
    for (const value of ["", "Date", "name", "toString", null, undefined, 3]) expect(isSortKey(value)).toBe(false);
  });
});

describe("search", () => {
  const atomic = notes.find((book) => book.slug === "atomic-habits");
  if (!atomic) throw new Error("fixture note missing");

  test("a case-insensitive substring of the name matches", () => {
    expect(matchesSearch(atomic, "atomic")).toBe(true);
    expect(matchesSearch(atomic, "ATOMIC HAB")).toBe(true);
    expect(matchesSearch(atomic, "mic ha")).toBe(true);
  });

  test("a substring of the author matches", () => {
    expect(matchesSearch(atomic, "clear")).toBe(true);
    expect(matchesSearch(atomic, "JAMES")).toBe(true);
  });

  test("the category matches: every note matches 'book'", () => {
    expect(notes.every((book) => matchesSearch(book, "Book"))).toBe(true);
    expect(notes.every((book) => matchesSearch(book, "boo"))).toBe(true);
    expect(catalogue.writings.every((writing) => matchesSearch(writing, "write"))).toBe(true);
  });

  test("any tag matches", () => {
    expect(matchesSearch(atomic, "psych")).toBe(true);
    expect(matchesSearch(atomic, "SELF-HELP")).toBe(true);
    expect(
      notes
        .filter((book) => matchesSearch(book, "philosophy"))
        .map((book) => book.slug)
        .sort(),
    ).toEqual(["12-rules-for-life", "all-about-love", "mans-search-for-meaning"]);
  });

  test("other text does not match: not the review, not the links", () => {
    expect(matchesSearch(atomic, "compound")).toBe(false);
    expect(matchesSearch(atomic, "amazon")).toBe(false);
    expect(matchesSearch(atomic, "zola")).toBe(false);
  });

  test("an empty or blank query matches everything; the query is trimmed", () => {
    expect(notes.every((book) => matchesSearch(book, ""))).toBe(true);
    expect(notes.every((book) => matchesSearch(book, "   "))).toBe(true);
    expect(matchesSearch(atomic, "  clear  ")).toBe(true);
  });

  test("accents are part of the text matched", () => {
    const germinal = notes.find((book) => book.slug === "germinal");
    expect(germinal && matchesSearch(germinal, "émile")).toBe(true);
    expect(germinal && matchesSearch(germinal, "ÉMILE")).toBe(true);
  });
});

describe("filters", () => {
  test("filtersFromQuery reads q, tag and sort", () => {
    expect(filtersFromQuery(new URLSearchParams("q=habit&tag=Self-help&sort=rating"))).toEqual({
      search: "habit",
      tag: "Self-help",
      sort: "rating",
    });
    expect(filtersFromQuery(new URLSearchParams(""))).toEqual(DEFAULT_FILTERS);
  });

  test("an unknown sort in the query is ignored", () => {
    expect(filtersFromQuery(new URLSearchParams("sort=popularity&q=x")).sort).toBe("date");
    expect(filtersFromQuery(new URLSearchParams("sort=RATING")).sort).toBe("date");
  });

  test("filtersToQuery leaves the defaults out: the plain list is just /notes", () => {
    expect(filtersToQuery(DEFAULT_FILTERS)).toBe("");
    expect(filtersToQuery({ ...DEFAULT_FILTERS, sort: "time" })).toBe("?sort=time");
  });

  test("filterFields gives each parameter once and leaves out the empty and default ones", () => {
    expect(filterFields({ search: "", sort: "date", tag: "" })).toEqual([]);
    expect(filterFields({ search: "road", sort: "rating", tag: "" })).toEqual([
      ["q", "road"],
      ["sort", "rating"],
    ]);
    expect(filterFields({ tag: "Fiction", sort: undefined })).toEqual([["tag", "Fiction"]]);
  });

  test("a control's own field and the fields of the other filters make the query of the changed filters, each parameter once", () => {
    const states: Filters[] = [
      DEFAULT_FILTERS,
      { search: "habit", sort: "rating", tag: "Fiction" },
      { search: "", sort: "time", tag: "Self-help" },
    ];
    const changes: Partial<Filters>[] = [
      { sort: "rating" },
      { sort: "date" },
      { tag: "Fiction" },
      { tag: "" },
      { search: "" },
    ];
    for (const filters of states) {
      for (const change of changes) {
        const [changed] = Object.keys(change) as (keyof Filters)[];
        const submitted = [...filterFields({ ...filters, [changed as string]: undefined }), ...filterFields(change)];
        const names = submitted.map(([name]) => name);
        expect(new Set(names).size, JSON.stringify({ filters, change })).toBe(names.length);
        expect(filtersFromQuery(new URLSearchParams(submitted))).toEqual({ ...filters, ...change });
        expect(submitted.length).toBe(filterFields({ ...filters, ...change }).length);
      }
    }
  });

  test("filters survive a round trip through the query string", () => {
    const cases: Filters[] = [
      DEFAULT_FILTERS,
      { search: "atomic habits", sort: "date", tag: "" },
      { search: "", sort: "author", tag: "Self-help" },
      { search: "a&b=c?#d é", sort: "time", tag: "Fiction & Fun" },
      ...(["date", "title", "author", "rating", "time", "releaseDate"] as const).map((sort) => ({
        search: "x",
        sort,
        tag: "y",
      })),
    ];
    for (const filters of cases) {
      const query = filtersToQuery(filters);
      expect(filtersFromQuery(new URLSearchParams(query)), query).toEqual(filters);
    }
  });

  test("the list counts as narrowed only when a search or a tag is active", () => {
    expect(isNarrowed(DEFAULT_FILTERS)).toBe(false);
    expect(isNarrowed({ ...DEFAULT_FILTERS, sort: "rating" })).toBe(false);
    expect(isNarrowed({ ...DEFAULT_FILTERS, search: "   " })).toBe(false);
    expect(isNarrowed({ ...DEFAULT_FILTERS, search: "x" })).toBe(true);
    expect(isNarrowed({ ...DEFAULT_FILTERS, tag: "Fiction" })).toBe(true);
  });

  test("applyFilters keeps the notes with the tag that match the search, in the chosen order", () => {
    expect(slugs(applyFilters(notes, DEFAULT_FILTERS))).toEqual(slugs(sortItems(notes, "date")));
    expect(slugs(applyFilters(notes, { search: "", tag: "Self-help", sort: "title" }))).toEqual([
      "atomic-habits",
      "the-four-agreements-2",
      "the-four-agreements",
    ]);
    expect(slugs(applyFilters(notes, { search: "ruiz", tag: "Self-help", sort: "rating" }))).toEqual([
      "the-four-agreements-2",
      "the-four-agreements",
    ]);
    // The time sort still drops the note whose time is unknown.
    expect(slugs(applyFilters(notes, { search: "", tag: "Spirituality", sort: "time" }))).toEqual([
      "the-four-agreements",
    ]);
    // A tag is matched exactly, not as a substring.
    expect(applyFilters(notes, { search: "", tag: "Self", sort: "date" })).toEqual([]);
    expect(applyFilters(notes, { search: "no such book", tag: "", sort: "date" })).toEqual([]);
  });
});
