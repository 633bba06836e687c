/** The site's search: its text rules (words, query cutting, snippets) and its ranking on the fixture content. */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadCatalogue } from "../../catalogue/disk.ts";
import {
  canonicalSearchQuery,
  cutQuery,
  MAX_QUERY_LENGTH,
  normaliseWord,
  searchPath,
  searchRequest,
  snippetOf,
  wordsOf,
} from "../../catalogue/search-text.ts";
import {
  buildSearchIndex,
  loadSearchIndex,
  MAX_QUERY_TERMS,
  queryTerms,
  RESULTS_PER_PAGE,
  resultPages,
  resultsStatus,
  type SearchDocument,
  searchDocuments,
  searchSite,
  serialiseSearchIndex,
  TYPO_TERMS,
} from "../../catalogue/site-search.ts";

const catalogue = loadCatalogue(join(import.meta.dirname, "../fixtures"));
const index = buildSearchIndex(searchDocuments(catalogue));
const hitsOf = (query: string, within = index) => searchSite(within, query).hits;
const titles = (query: string, within = index) => hitsOf(query, within).map((hit) => hit.title);
const marked = (parts: { text: string; mark: boolean }[]) =>
  parts.map((p) => (p.mark ? `[${p.text}]` : p.text)).join("");

/** An index of invented pages, each a title and a text, dated a day apart in the order given. */
function pages(...titlesAndTexts: [title: string, text: string][]) {
  const documents: SearchDocument[] = titlesAndTexts.map(([title, text], id) => ({
    id,
    kind: "essay",
    title,
    byline: "",
    keywords: "",
    text,
    date: `2020-01-${String(id + 1).padStart(2, "0")}`,
    path: `/write/page-${id}`,
  }));
  return buildSearchIndex(documents);
}

describe("search text", () => {
  test("a word is compared without case, accents or apostrophes", () => {
    expect(normaliseWord("Émile")).toBe("emile");
    expect(normaliseWord("CHÖDRÖN")).toBe("chodron");
    expect(normaliseWord("Man's")).toBe("mans");
    expect(normaliseWord("Søren")).toBe("søren");
  });

  test("words are letters and digits, an apostrophe inside a word keeps it whole", () => {
    expect(wordsOf("Thinking, Fast and Slow — 12 rules; man's “search”")).toEqual([
      "Thinking",
      "Fast",
      "and",
      "Slow",
      "12",
      "rules",
      "man's",
      "search",
    ]);
  });

  test("a query is trimmed, its spaces collapsed, and cut to its maximum length", () => {
    expect(cutQuery("  deep \n\t work  ")).toBe("deep work");
    expect(cutQuery("   ")).toBe("");
    const long = "word ".repeat(100);
    expect(cutQuery(long).length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    expect(cutQuery(long).startsWith("word word")).toBe(true);
  });

  test("cutting a query never splits a character made of two code units", () => {
    const query = `${"a".repeat(MAX_QUERY_LENGTH - 1)}😀😀`;
    expect(cutQuery(query)).toBe(`${"a".repeat(MAX_QUERY_LENGTH - 1)}😀`);
  });

  test("a snippet marks every matched word, whatever its case and accents", () => {
    const parts = snippetOf("Zola's Émile wrote about emile and EMILE.", new Set(["emile"]));
    expect(marked(parts)).toBe("Zola's [Émile] wrote about [emile] and [EMILE].");
  });

  test("a snippet of a long text starts a few words before the first match, with ellipses", () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    const parts = snippetOf(words.join(" "), new Set(["w50"]), 10);
    expect(marked(parts)).toBe("…w47 w48 w49 [w50] w51 w52 w53 w54 w55 w56…");
  });

  test("a snippet near the end of a text ends with it", () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`);
    expect(marked(snippetOf(words.join(" "), new Set(["w29"]), 5))).toBe("…w25 w26 w27 w28 [w29]");
  });

  test("a text without any matched word gives its beginning unmarked; an empty text gives nothing", () => {
    expect(marked(snippetOf("One two three four", new Set(["zzz"]), 2))).toBe("One two…");
    expect(snippetOf("", new Set(["a"]))).toEqual([]);
  });
});

describe("searching the site", () => {
  test("a phrase from the body of a review finds that note first", () => {
    expect(titles("a novel about miners")[0]).toBe("Germinal");
    expect(titles("a way through suffering")[0]).toBe("Man's Search for Meaning");
  });

  test("a phrase from an essay finds the essay", () => {
    const [first] = hitsOf("fear points at what matters");
    expect(first).toMatchObject({ kind: "essay", title: "Fear", path: "/write/fear" });
  });

  test("newsletter issues, apps and jobs are found too", () => {
    expect(hitsOf("first fixture issue")[0]).toMatchObject({ kind: "issue", path: "/updates/first-issue" });
    expect(hitsOf("alpha")[0]).toMatchObject({ kind: "app", path: "/apps/alpha" });
    expect(hitsOf("acme")[0]).toMatchObject({ kind: "job", path: "/work/acme" });
  });

  test("a book is found by the name of its series", () => {
    expect(hitsOf("northern almanacs")[0]).toMatchObject({ kind: "note", path: "/notes/a-winter-almanac" });
  });

  test("a misspelt title finds the book", () => {
    expect(titles("atomik habbits")[0]).toBe("Atomic Habits");
    expect(titles("germnal")[0]).toBe("Germinal");
  });

  test("a word being typed finds by its beginning", () => {
    expect(titles("germ")[0]).toBe("Germinal");
    expect(titles("habi")).toContain("Atomic Habits");
  });

  test("an accent-free query finds an accented name", () => {
    expect(titles("emile zola")[0]).toBe("Germinal");
  });

  test("a title match ranks above a mention in another page's body", () => {
    // Atomic Habits' review names Deep Work; the note titled Deep Work comes first.
    expect(titles("deep work")[0]).toBe("Deep Work");
    expect(titles("deep work")).toContain("Atomic Habits");
  });

  test("equal scores put the newer first", () => {
    const twin = (id: number, date: string) => ({
      id,
      kind: "note" as const,
      title: "The Same Book",
      byline: "Same Author",
      keywords: "",
      text: "",
      date,
      path: `/notes/same-${id}`,
    });
    const twins = buildSearchIndex([twin(0, "2017-02-03"), twin(1, "2022-01-09"), twin(2, "2019-05-05")]);
    expect(hitsOf("same book", twins).map((hit) => hit.date)).toEqual(["2022-01-09", "2019-05-05", "2017-02-03"]);
  });

  test("each result has its kind, title, date and a snippet with the matched words marked", () => {
    const [first] = hitsOf("miners");
    expect(first).toMatchObject({ kind: "note", title: "Germinal", date: "2016-09-09", path: "/notes/germinal" });
    expect(marked(first?.snippet ?? [])).toBe("A novel about [miners].");
  });

  test("when no document has every word, documents with any of them are found", () => {
    expect(titles("miners xylophonequartz")[0]).toBe("Germinal");
  });

  test("an empty query finds nothing, and a long query is searched by its beginning", () => {
    expect(searchSite(index, "   ")).toMatchObject({ total: 0, hits: [] });
    expect(titles(`germinal ${"x".repeat(500)}`)[0]).toBe("Germinal");
  });

  test("drafts are not found", () => {
    expect(titles("draft book")).not.toContain("A Draft Book");
    expect(titles("unfinished")).not.toContain("Unfinished");
  });

  test("a query of stop words only finds the titles that read as it, the same title first", () => {
    expect(titles("the")).toEqual(
      expect.arrayContaining(["The Four Agreements", "The Glass Orchard", "The Lantern Keeper"]),
    );
    expect(titles("be")[0]).toBe("Be");
    const within = pages(["Thinking in Bets", "the the the"], ["On the Way", ""], ["The", ""], ["Theory of Games", ""]);
    expect(titles("the", within)).toEqual(["The", "Theory of Games", "On the Way"]);
    expect(titles("of the", within)).toEqual([]);
  });

  test("a title that reads as the query, stop words included, comes before titles that only share its words", () => {
    const within = pages(
      ["Road Notes", "road road road. The road, the road and the road again."],
      ["On the Road", "A road trip."],
      ["The Road", "A father and a son walk south."],
      ["The Road Home", "Walking home."],
    );
    expect(titles("the road", within)).toEqual(["The Road", "The Road Home", "On the Road", "Road Notes"]);
  });

  test("a word under five letters has no typo forgiven, five to eight letters one, nine and more two", () => {
    const typos = (word: string) => queryTerms(word)[0]?.typos;
    expect([typos("fast"), typos("habit"), typos("thinking"), typos("brilliant")]).toEqual([0, 1, 1, 2]);
    const within = pages(["Last Past", "The last and the past."], ["Gardening", "On brilliance."]);
    expect(titles("fast", within)).toEqual([]);
    expect(titles("gardning", within)).toEqual(["Gardening"]);
    expect(titles("brillianse", within)).toEqual(["Gardening"]);
  });

  test("a misspelt word finds its book first, never a page that matched another word only by a typo", () => {
    const within = pages(
      ["Thinking, Fast and Slow", "Two systems of thinking."],
      ["Last Orders", "On thinking about the last and the past."],
      ["Fasting", "Thinking, slowly."],
    );
    expect(titles("thiking fast", within)).toEqual(["Thinking, Fast and Slow", "Fasting"]);
  });

  test("a match found with a typo ranks below an exact match, even one in the body only", () => {
    const within = pages(["Stoke", "A town."], ["Walls", "A wall of stone."]);
    expect(titles("stone", within)).toEqual(["Walls", "Stoke"]);
  });

  test("a snippet marks the words found exactly, and words found with a typo only where nothing was exact", () => {
    const within = pages(["Walls", "Stony ground, a stone wall, stones."], ["Fields", "Stony ground."]);
    expect(hitsOf("stone", within).map((hit) => marked(hit.snippet))).toEqual([
      "Stony ground, a [stone] wall, [stones].",
      "[Stony] ground.",
    ]);
  });

  test("the index read back from its file ranks exactly as the one built", () => {
    const loaded = loadSearchIndex(serialiseSearchIndex(index));
    for (const query of ["miners", "atomik habbits", "emile", "deep work", "four agreements"]) {
      expect(searchSite(loaded, query)).toEqual(searchSite(index, query));
    }
  });
});

describe("pages of results", () => {
  const many = pages(
    ...Array.from({ length: 2 * RESULTS_PER_PAGE + 13 }, (_, at): [string, string] => [`Letter ${at}`, "A garden."]),
  );

  test("each page has its share of the results, every result on exactly one page", () => {
    const shown = [1, 2, 3].map((page) => searchSite(many, "garden", { page }));
    expect(shown.map(({ total, page, pages, hits }) => [total, page, pages, hits.length])).toEqual([
      [113, 1, 3, 50],
      [113, 2, 3, 50],
      [113, 3, 3, 13],
    ]);
    const paths = shown.flatMap(({ hits }) => hits.map((hit) => hit.path));
    expect(new Set(paths).size).toBe(113);
    expect(paths).toEqual(searchSite(many, "garden", { perPage: 1000 }).hits.map((hit) => hit.path));
  });

  test("a page beyond the last shows the last", () => {
    expect(searchSite(many, "garden", { page: 99_999_999_999 })).toMatchObject({ page: 3, pages: 3 });
    expect(searchSite(many, "nothing-like-it", { page: 4 })).toMatchObject({ total: 0, page: 1, pages: 1, hits: [] });
  });

  test("the status says how many results there are, and which of them a page shows", () => {
    const status = (query: string, options = {}) => resultsStatus(query, searchSite(many, query, options));
    expect(status("garden")).toBe("Results 1–50 of 113");
    expect(status("garden", { page: 3 })).toBe("Results 101–113 of 113");
    expect(status("letter 112")).toBe("1 result");
    expect(status("letter 10")).toBe("11 results");
    expect(status("letter 10", { perPage: 8 })).toBe("Results 1–8 of 11");
    expect(status("zzzz")).toBe("Nothing found for “zzzz”.");
  });

  test("the links to the pages around this one are named by the results they show", () => {
    const around = (page: number) => resultPages("garden", searchSite(many, "garden", { page }));
    expect(around(1)).toEqual([{ rel: "next", label: "Next", href: "/search?q=garden&page=2", text: "51–100" }]);
    expect(around(3)).toEqual([{ rel: "prev", label: "Previous", href: "/search?q=garden&page=2", text: "51–100" }]);
    expect(around(2).map((link) => link.href)).toEqual(["/search?q=garden", "/search?q=garden&page=3"]);
    expect(resultPages("fear", searchSite(index, "fear"))).toEqual([]);
  });

  test("the address asks for a whole page from 1, its last value winning; anything else is the first page", () => {
    const pageOf = (search: string) => searchRequest(new URLSearchParams(search)).page;
    expect(["?page=2", "?page=1&page=3", "?page=99999999999"].map(pageOf)).toEqual([2, 3, 99_999_999_999]);
    expect(["", "?page=-1", "?page=abc", "?page=0", "?page=1.5", "?page=1e400", "?page="].map(pageOf)).toEqual([
      1, 1, 1, 1, 1, 1, 1,
    ]);
    expect(canonicalSearchQuery(new URLSearchParams("?page=2&q=a+b&q=deep%20work&utm=x"))).toBe("?q=deep+work&page=2");
    expect(canonicalSearchQuery(new URLSearchParams("?q=deep+work&page=1"))).toBe("?q=deep+work");
    expect(canonicalSearchQuery(new URLSearchParams("?page=2"))).toBe("");
    expect(searchPath("", 3)).toBe("/search");
  });
});

describe("what a query costs", () => {
  const letters = "bcdefghjklmnopqrstuvwxyz";
  const worstQueries = {
    "a hundred one-letter words": Array.from({ length: 100 }, (_, at) => letters[at % letters.length]).join(" "),
    "one-letter words joined by dots": Array.from({ length: 100 }, (_, at) => letters[at % letters.length]).join("."),
    "many two-letter words": Array.from({ length: 66 }, (_, at) => `${letters[at % 24]}${letters[(at * 7) % 24]}`).join(
      " ",
    ),
    "one word repeated": "habits ".repeat(40),
    "long words": Array.from({ length: 20 }, (_, at) => `understanding${letters[at]}`).join(" "),
    "one word of two hundred letters": "x".repeat(200),
    "words in another script": "мысль слово ".repeat(20),
    "punctuation only": "!?.,;:".repeat(40),
  };

  test.each(Object.entries(worstQueries))("%s: a few words at most stretch by prefix or typo", (_, query) => {
    const terms = queryTerms(query);
    expect(terms.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
    expect(new Set(terms.map((term) => term.term)).size).toBe(terms.length);
    expect(terms.filter((term) => term.prefix).length).toBeLessThanOrEqual(1);
    expect(terms.filter((term) => term.typos > 0).length).toBeLessThanOrEqual(TYPO_TERMS + 1);
  });

  test("a word said twice is searched once", () => {
    expect(queryTerms("habits HABITS Habits").map((term) => term.term)).toEqual(["habits"]);
  });

  test("the word being typed matches by its prefix; the first words and the last forgive typos", () => {
    expect(queryTerms("thiking fast")).toEqual([
      { term: "thiking", prefix: false, typos: 1 },
      { term: "fast", prefix: true, typos: 0 },
    ]);
    const words = "alpha bravo charlie delta echoes foxtrot golfing";
    expect(queryTerms(words).map(({ prefix, typos }) => [prefix, typos])).toEqual([
      [false, 1],
      [false, 1],
      [false, 1],
      [false, 0],
      [false, 0],
      [false, 0],
      [true, 1],
    ]);
  });

  test("a query beyond its first words is searched by them, the last of them as the word being typed", () => {
    const words = Array.from({ length: 30 }, (_, at) => `word${at}`);
    const terms = queryTerms(words.join(" "));
    expect(terms.map((term) => term.term)).toEqual(words.slice(0, MAX_QUERY_TERMS));
    expect(terms.at(-1)?.prefix).toBe(true);
  });
});
