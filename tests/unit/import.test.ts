/**
 * The pure parts of `npm run import` and `npm run export`: reading the sources' files (on the
 * sample exports of tests/fixtures/imports), HTML to Markdown, the book's identity, ratings,
 * tags, the plan of what to create, and the file each note becomes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseCsvSync } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue } from "../../catalogue/load.ts";
import { noteFileText } from "../../catalogue/new-item.ts";
import {
  normaliseIsbn,
  type Reading,
  siteRating,
  sourceDay,
  starsOf,
  titleAuthorKey,
} from "../../scripts/import/book.ts";
import { readCsv } from "../../scripts/import/csv.ts";
import { noteText } from "../../scripts/import/files.ts";
import { goodreadsCsv, readGoodreads, reviewToHtml } from "../../scripts/import/goodreads.ts";
import { htmlToMarkdown, reviewToMarkdown } from "../../scripts/import/html-markdown.ts";
import { mediumFiles, readMediumPost } from "../../scripts/import/medium.ts";
import { planBooks, planEssays } from "../../scripts/import/plan.ts";
import { type SiteNote, siteNotes } from "../../scripts/import/site-notes.ts";
import { readingSpans, readStoryGraph } from "../../scripts/import/storygraph.ts";
import { addTagsToSiteYaml, parseTagMap, resolveTags, tagNameOf } from "../../scripts/import/tags.ts";

const IMPORTS = join(import.meta.dirname, "../fixtures/imports");
const fixture = (name: string) => readFileSync(join(IMPORTS, name), "utf8");
const goodreads = await readGoodreads(fixture("goodreads_library_export.csv"), 2);
const storygraph = await readStoryGraph(fixture("storygraph_export.csv"), 2);
const FIXTURE_FILES = readContentFiles(join(import.meta.dirname, "../fixtures"));
const DECLARED = ["Fiction", "Philosophy", "History", "Self-help"];

const reading = (overrides: Partial<Reading>): Reading => ({
  line: 2,
  title: "The Copper Gate",
  author: "Tomás Ibáñez",
  isbn: "",
  shelf: "read",
  date: "2022-07-09",
  rating: 6,
  labels: ["fiction"],
  review: "",
  ...overrides,
});

describe("reading a CSV file", () => {
  test("quoted fields keep their commas, quotes and new lines; a byte-order mark and CRLF are read", async () => {
    const table = await readCsv(
      '\ufeffTitle,Review\r\n"Salt, Smoke, and ""Other"" Stories","one\r\ntwo"\r\nPlain,x\r\n',
    );
    expect(table.header).toEqual(["Title", "Review"]);
    expect(table.rows).toEqual([
      { line: 2, fields: { Title: 'Salt, Smoke, and "Other" Stories', Review: "one\ntwo" } },
      { line: 4, fields: { Title: "Plain", Review: "x" } },
    ]);
  });

  test("a row with the wrong number of fields is reported with the line it starts on, and the rest is read", async () => {
    const table = await readCsv('a,b\n1,"two\nlines"\nbroken\n\n3,4\n');
    expect(table.broken).toEqual([{ line: 4, problem: "has 1 fields where the header has 2" }]);
    expect(table.rows.map((row) => [row.line, row.fields.a])).toEqual([
      [2, "1"],
      [6, "3"],
    ]);
  });

  test("a quote never closed is reported, with the rows before it read", async () => {
    const table = await readCsv('a,b\n1,2\n3,"never closed\n');
    expect(table.rows).toHaveLength(1);
    expect(table.broken[0]?.line).toBe(3);
    expect(table.broken[0]?.problem).toContain("never closed");
  });
});

describe("the book's identity, ratings and days", () => {
  test('ISBNs written ="…", with hyphens, or as ISBN-10 compare as the same ISBN-13', () => {
    expect(normaliseIsbn('="0306406152"')).toBe("9780306406157");
    expect(normaliseIsbn("978-0-306-40615-7")).toBe("9780306406157");
    expect(normaliseIsbn('=""')).toBe("");
    expect(normaliseIsbn("sg-7f3a9c")).toBe("");
    expect(normaliseIsbn("080442957X")).toBe("9780804429573");
  });

  test("title and author match without series, subtitle, accents or spacing", () => {
    expect(titleAuthorKey("Deep Work: Rules for Focused Success in a Distracted World", "Cal  Newport")).toBe(
      titleAuthorKey("Deep Work", "Cal Newport"),
    );
    expect(titleAuthorKey("The Copper Gate (The Tidewater Cycle, #1)", "Tomas Ibanez")).toBe(
      titleAuthorKey("The Copper Gate", "Tomás Ibáñez"),
    );
    expect(titleAuthorKey("Le Jardin d'Hiver", "Élodie Marchand, Jun Watanabe")).toBe(
      titleAuthorKey("Le Jardin d’Hiver", "Elodie Marchand"),
    );
    expect(titleAuthorKey("Deep Work", "Someone Else")).not.toBe(titleAuthorKey("Deep Work", "Cal Newport"));
  });

  test("stars become the site's 0-10 rating by the scale, 0 stars being no rating, and back", () => {
    expect(siteRating(4, 2)).toBe(8);
    expect(siteRating(3.75, 2)).toBe(7.5);
    expect(siteRating(4.25, 2)).toBe(8.5);
    expect(siteRating(5, 2.5)).toBe(10);
    expect(siteRating(0, 2)).toBeNull();
    expect(starsOf(8, 2)).toBe(4);
    expect(starsOf(8.7, 2)).toBe(4);
    expect(starsOf(0.4, 2)).toBe(1);
  });

  test("the sources' days are read as real days only", () => {
    expect(sourceDay("2019/03/14")).toBe("2019-03-14");
    expect(sourceDay("1998/1/2")).toBe("1998-01-02");
    expect(sourceDay("2021/02/30")).toBeNull();
    expect(sourceDay("14/03/2019")).toBeNull();
  });
});

describe("HTML to Markdown", () => {
  test("a Goodreads review: <br/><br/> are paragraphs, emphasis, links and spoilers are kept", () => {
    const { markdown } = reviewToMarkdown(
      'A <i>slow</i> start, <b>then</b> <a href="https://example.com/x">more</a>.<br/><br/>Line one<br/>line two * star<br/><br/>[spoiler]It was the lighthouse.[/spoiler]',
    );
    expect(markdown).toBe(
      "A *slow* start, **then** [more](https://example.com/x).\n\nLine one  \nline two \\* star\n\n[spoiler]\nIt was the lighthouse.\n[/spoiler]",
    );
  });

  test("a spoiler inside a paragraph, or over several, becomes a spoiler block of its own; a mark never closed stays text", () => {
    expect(
      reviewToMarkdown("I loved it. [spoiler]The keeper <b>is</b> the light.<br/><br/>Twice.[/SPOILER] Read it.")
        .markdown,
    ).toBe("I loved it.\n\n[spoiler]\nThe keeper **is** the light.\n\nTwice.\n[/spoiler]\n\nRead it.");
    expect(reviewToMarkdown("One <spoiler>tagged</spoiler>").markdown).toBe("One\n\n[spoiler]\ntagged\n[/spoiler]");
    expect(reviewToMarkdown("Open [spoiler] and never closed").markdown).toBe("Open \\[spoiler\\] and never closed");
  });

  test("plain text keeps its paragraphs, and Markdown characters in it stay text", () => {
    expect(reviewToMarkdown("First\n\n# not a heading\n1. not a list").markdown).toBe(
      "First\n\n\\# not a heading  \n1\\. not a list",
    );
  });

  test("a post's headings, lists, quotes and code are Markdown; its images are links, listed", () => {
    const { markdown, images } = htmlToMarkdown(
      '<h3 class="graf--title">Title</h3><h4>Part</h4><ol><li>one</li><li>two</li></ol><blockquote>said</blockquote><pre>a &lt; b<br>c</pre><figure><img src="https://cdn.example/x.jpg" alt="A [boat]"></figure>',
    );
    expect(markdown).toBe(
      "#### Part\n\n1. one\n2. two\n\n> said\n\n```\na < b\nc\n```\n\n[Image: A boat](https://cdn.example/x.jpg)",
    );
    expect(images).toEqual(["https://cdn.example/x.jpg"]);
  });
});

describe("Goodreads' export", () => {
  test("every row is a reading or a skip with its line: the broken row and the impossible day are unreadable", () => {
    expect(goodreads.rows).toBe(13);
    expect(goodreads.readings).toHaveLength(11);
    expect(goodreads.skipped).toEqual([
      { line: 9, what: "a row", reason: "unreadable: has 4 fields where the header has 31" },
      {
        line: 15,
        what: '"The Impossible Calendar"',
        reason: 'unreadable: Date Read "2021/02/30" is not a day written like 2019/03/14',
      },
    ]);
  });

  test("a row gives title, author, ISBN, rating, day, shelves and its review in Markdown", () => {
    expect(goodreads.readings[0]).toMatchObject({
      line: 2,
      title: "The Lighthouse Keeper's Almanac",
      author: "Maren Holt",
      isbn: "9780306406157",
      shelf: "read",
      date: "2021-03-14",
      rating: 10,
      labels: ["favorites", "fiction"],
    });
    expect(goodreads.readings[0]?.review).toContain("reads like **poetry**");
    const salt = goodreads.readings[1];
    expect(salt).toMatchObject({ title: 'Salt, Smoke, and "Other" Stories', author: "Ilse Ångström", isbn: "" });
    expect(salt?.review).toBe(
      "Eleven stories set on one island.  \nEach one ends where the next begins.\n\nWorth it for *The Net-Mender* alone.",
    );
  });

  test("the exclusive shelves are the site's shelves, and a read row without Date Read is dated when added", () => {
    const byTitle = (title: string) => goodreads.readings.find((candidate) => candidate.title === title);
    expect(byTitle("Maps of the Drowned Coast")).toMatchObject({
      shelf: "want",
      date: "2024-01-10",
      labels: ["history"],
    });
    expect(byTitle("The Patient Orchard")).toMatchObject({ shelf: "reading", date: "2024-06-01", labels: [] });
    expect(byTitle("A Very Long Argument")).toMatchObject({ shelf: "did-not-finish", rating: 4 });
    expect(byTitle("An Unrated Voyage")?.rating).toBeNull();
    expect(byTitle("Ledger of Small Hours")?.date).toBe("2018-02-11");
    expect(goodreads.remarks.join("\n")).toContain('"Ledger of Small Hours" was read 3 times');
  });

  test("a series suffix leaves the title and becomes the reading's series", () => {
    expect(goodreads.readings.find((candidate) => candidate.line === 5)).toMatchObject({
      title: "The Copper Gate",
      series: { name: "The Tidewater Cycle", number: 1 },
    });
    expect(goodreads.readings[0]?.series).toBeNull();
  });

  test("a file that is not Goodreads' export is refused, naming what is missing", async () => {
    await expect(readGoodreads("Name,Stars\nx,1\n", 2)).rejects.toThrow(/no column "Title", "Author"/);
  });
});

describe("StoryGraph's export", () => {
  test("each reading of Dates Read is its own, the last one taking the status; open spans are being read", () => {
    expect(readingSpans("2019/04/20-2019/05/01, 2024/06/01-")).toEqual([
      { start: "2019-04-20", end: "2019-05-01" },
      { start: "2024-06-01", end: null },
    ]);
    expect(readingSpans("soon")).toBeNull();
    const engines = storygraph.readings.filter((candidate) => candidate.title === "Quiet Engines");
    expect(engines.map(({ shelf, date, rating }) => ({ shelf, date, rating }))).toEqual([
      { shelf: "read", date: "2019-05-01", rating: 8.5 },
      { shelf: "read", date: "2023-08-20", rating: 8.5 },
    ]);
    expect(engines[0]?.review).toBe("");
    expect(engines[1]?.review).toContain("The engines are the people.");
    expect(storygraph.readings.find((candidate) => candidate.title === "The Patient Orchard")).toMatchObject({
      shelf: "reading",
      date: "2024-06-01",
      isbn: "",
    });
  });

  test("quarter stars, several authors and the broken row", () => {
    expect(storygraph.readings.find((candidate) => candidate.title === "Le Jardin d'Hiver")).toMatchObject({
      author: "Élodie Marchand, Jun Watanabe",
      rating: 7.5,
      isbn: "9782070360024",
    });
    expect(storygraph.skipped).toEqual([
      { line: 8, what: "a row", reason: "unreadable: has 2 fields where the header has 23" },
    ]);
  });
});

describe("Medium's export", () => {
  const readings = mediumFiles(join(IMPORTS, "medium")).map(readMediumPost);

  test("published posts are read; drafts and replies are told apart", () => {
    expect(readings.map((reading) => reading.kind).sort()).toEqual(["draft", "post", "post", "reply"]);
  });

  test("a post gives its title, day, canonical address and body without its own title", () => {
    const post = readings.find((reading) => reading.kind === "post" && reading.post.title === "On Tides and Habits");
    if (post?.kind !== "post") throw new Error("the post is missing");
    expect(post.post).toMatchObject({
      date: "2021-05-02",
      url: "https://medium.com/@sample-writer/on-tides-and-habits-1a2b3c4d5e6f",
      images: ["https://cdn-images-1.medium.com/max/800/1*tide.jpeg"],
    });
    expect(post.post.markdown.startsWith("Every morning the tide comes in *whether or not*")).toBe(true);
    expect(post.post.markdown).not.toContain("# On Tides and Habits");
  });

  test("an essay already there, by its address or its slug, is not planned again", () => {
    const posts = readings.flatMap((reading) => (reading.kind === "post" ? [reading.post] : []));
    const plan = planEssays(posts, [
      { slug: "whatever", path: "content/write/whatever.md", mediumLink: posts[0]?.url ?? "" },
    ]);
    expect(plan.essays.map((essay) => essay.path)).toEqual(["content/write/a-small-essay-on-maps-cafe-edition.md"]);
    expect(plan.skipped[0]?.reason).toBe("already there (content/write/whatever.md)");
  });
});

describe("tags", () => {
  test("a shelf named like a declared tag is that tag; a map and --add-tags cover the others", () => {
    const map = parseTagMap("fantasy: Fiction\nfavorites: null\nhistory-of-ideas: [History, Philosophy]\n");
    expect(resolveTags(["self-help", "fantasy", "favorites", "poetry"], DECLARED, map, false)).toEqual({
      tags: ["Self-help", "Fiction"],
      unknown: ["poetry"],
      added: [],
    });
    expect(resolveTags(["History of Ideas", "science-fiction"], DECLARED, map, true)).toEqual({
      tags: ["History", "Philosophy", "Science fiction"],
      unknown: [],
      added: ["Science fiction"],
    });
    expect(tagNameOf("short_stories")).toBe("Short stories");
    expect(() => parseTagMap("- a\n- b\n")).toThrow(/map of shelf to tag/);
    expect(() => parseTagMap("fantasy: 3\n")).toThrow(/not a tag/);
  });

  test("new tags are added to site.yaml's list, every other byte of the file kept", () => {
    const site = readFileSync(join(import.meta.dirname, "../fixtures/content/site.yaml"), "utf8");
    const edited = addTagsToSiteYaml(site, ["Poetry", "Science fiction"]);
    const tagLine = /^tags: .*$/m;
    expect(edited.replace(tagLine, "")).toBe(site.replace(tagLine, ""));
    expect(edited).toMatch(/^tags: \[.*"Spirituality", "Poetry", "Science fiction"\]$/m);
    const block = "name: x\ntags:\n  - A # the first\n  - B\nlead: y\n";
    expect(addTagsToSiteYaml(block, ["C"])).toBe('name: x\ntags:\n  - A # the first\n  - B\n  - "C"\nlead: y\n');
  });
});

describe("the plan", () => {
  const site = siteNotes(FIXTURE_FILES);
  const rules = { declared: DECLARED, map: new Map(), addUnknown: false };

  test("a book already there, by ISBN or by title and author, is skipped with the file that holds it", () => {
    const plan = planBooks(
      [reading({ title: "Deep Work: Rules for Focused Success", author: "Cal Newport" })],
      site,
      rules,
      { drafts: false },
    );
    expect(plan.notes).toEqual([]);
    expect(plan.skipped[0]?.reason).toBe("already there (content/notes/deep-work.md)");
    const byIsbn = planBooks(
      [reading({ isbn: "9780306406157" })],
      [{ ...site[0], isbn: "0306406152" } as (typeof site)[number]],
      rules,
      { drafts: false },
    );
    expect(byIsbn.notes).toEqual([]);
  });

  test("readings of one book are x, x-2 … by date, whatever their order in the file", () => {
    const plan = planBooks(
      [
        reading({ line: 3, date: "2023-08-20", title: "The Copper Gate (The Tidewater Cycle, #1)" }),
        reading({ line: 2, date: "2019-05-01" }),
      ],
      site,
      rules,
      { drafts: false },
    );
    expect(plan.notes.map((note) => [note.path, note.line])).toEqual([
      ["content/notes/the-copper-gate.md", 2],
      ["content/notes/the-copper-gate-2.md", 3],
    ]);
  });

  test("unrated and untagged read books are skipped, or drafts with --drafts; reading and want need neither", () => {
    const readings = [
      reading({ rating: null }),
      reading({ title: "Untagged", labels: ["poetry"] }),
      reading({ title: "Wanted", shelf: "want", rating: null, labels: [] }),
    ];
    const plan = planBooks(readings, site, rules, { drafts: false });
    expect(plan.skipped.map((skip) => skip.reason.split(" ")[0])).toEqual(["unrated", "no"]);
    expect(plan.unknownShelves).toEqual(new Map([["poetry", 1]]));
    expect(plan.notes.map((note) => [note.slug, note.note.tags, note.note.rating])).toEqual([["wanted", [], null]]);
    const drafts = planBooks(readings, site, rules, { drafts: true });
    expect(drafts.notes.map((note) => [note.slug, note.note.tags, note.note.rating])).toEqual([
      ["the-copper-gate", ["Fiction"], null],
      ["untagged", null, 6],
      ["wanted", [], null],
    ]);
  });
});

describe("the note file", () => {
  test("a read note is the file npm run new writes, with the review below it", () => {
    const note = {
      title: "The Copper Gate (The Tidewater Cycle, #1)",
      author: "Tomás Ibáñez",
      tags: ["Fiction"],
      rating: 6,
    };
    const text = noteText({ ...note, date: "2022-07-09", shelf: "read", isbn: "", photo: "", review: "" });
    expect(text).toBe(noteFileText(note, "7/9/22"));
    expect(
      noteText({
        ...note,
        tags: null,
        rating: null,
        date: "2022-07-09",
        shelf: "read",
        isbn: "",
        photo: "",
        review: "",
      }),
    ).toBe(noteFileText({ ...note, tags: null, rating: null }, "7/9/22"));
  });

  test("shelf, cover, ISBN and review are written, and the loader accepts a read note with them", () => {
    const text = noteText({
      title: "The Copper Gate (The Tidewater Cycle, #1)",
      author: "Tomás Ibáñez",
      date: "1998-07-09",
      shelf: "read",
      tags: ["Fiction"],
      rating: 6,
      isbn: "9781402894626",
      photo: "/images/notes/mans-search-for-meaning.svg",
      review: "A *fine* gate.",
    });
    expect(text).toContain('date: "7/9/1998"');
    const catalogue = buildCatalogue([...FIXTURE_FILES, { path: "content/notes/the-copper-gate.md", text }]);
    const note = catalogue.notes.find((candidate) => candidate.slug === "the-copper-gate");
    expect(note).toMatchObject({ isbn: "9781402894626", rating: 6, markdown: "A *fine* gate." });
  });

  test("a series is written as the note's series field, and the loader reads it back", () => {
    const text = noteText({
      title: "The Copper Gate",
      series: { name: "The Tidewater Cycle", number: "1-3" },
      author: "Tomás Ibáñez",
      date: "2022-07-09",
      shelf: "read",
      tags: ["Fiction"],
      rating: 6,
      isbn: "",
      photo: "",
      review: "",
    });
    expect(text).toContain('series: { name: "The Tidewater Cycle", number: "1-3" }\n');
    const catalogue = buildCatalogue([...FIXTURE_FILES, { path: "content/notes/the-copper-gate.md", text }]);
    expect(catalogue.notes.find((candidate) => candidate.slug === "the-copper-gate")).toMatchObject({
      name: "The Copper Gate",
      series: { name: "The Tidewater Cycle", number: "1-3" },
    });
  });

  test("a reading note is npm run new's with its shelf: no rating, and its tags a prompt, and the loader accepts it", () => {
    const note = { title: "The Patient Orchard", author: "Saoirse Nic Aodha" };
    const text = noteText({
      ...note,
      date: "2024-06-01",
      shelf: "reading",
      tags: [],
      rating: null,
      isbn: "",
      photo: "",
      review: "",
    });
    expect(text).toBe(noteFileText({ ...note, tags: null, rating: null, shelf: "reading" }, "6/1/24"));
    expect(text).toContain("shelf: reading\n");
    expect(text).not.toMatch(/^(tags|rating|draft):/m);
    const catalogue = buildCatalogue([...FIXTURE_FILES, { path: "content/notes/the-patient-orchard.md", text }]);
    expect(catalogue.notes.find((candidate) => candidate.slug === "the-patient-orchard")).toMatchObject({
      shelf: "reading",
      rating: null,
    });
  });
});

describe("the Goodreads file the export writes", () => {
  test("a review is Goodreads' HTML, and reads back as the same Markdown", () => {
    const markdown =
      "A *slow* start, **then** [more](https://example.com/x).\n\nLine one  \nline two\n\n[spoiler]\nIt was the lighthouse.\n\nAll along.\n[/spoiler]";
    const html = reviewToHtml(markdown, "https://site.example");
    expect(html).toBe(
      'A <em>slow</em> start, <strong>then</strong> <a href="https://example.com/x">more</a>.<br/><br/>Line one<br/>line two<br/><br/>[spoiler]It was the lighthouse.<br/><br/>All along.[/spoiler]',
    );
    expect(reviewToMarkdown(html).markdown).toBe(markdown);
    expect(reviewToHtml("See [Deep Work](/notes/deep-work).", "https://site.example")).toContain(
      'href="https://site.example/notes/deep-work"',
    );
  });

  test("a series goes back into the title as Goodreads writes it, and reads back as the same series", async () => {
    const [note] = siteNotes([
      {
        path: "content/notes/the-copper-gate.md",
        text: '---\nname: "The Copper Gate"\nseries: { name: "The Tidewater Cycle", number: 1 }\nauthor: "Tomás Ibáñez"\ndate: "7/9/22"\ntags: ["Fiction"]\nrating: 6\ntime: 0\n---\n',
      },
    ]);
    if (!note) throw new Error("the note is missing");
    const csv = goodreadsCsv([note], 2, "https://site.example");
    expect(csv).toContain('"The Copper Gate (The Tidewater Cycle, #1)"');
    expect((await readGoodreads(csv, 2)).readings[0]).toMatchObject({
      title: "The Copper Gate",
      series: { name: "The Tidewater Cycle", number: 1 },
    });
  });

  test("read back, the file gives every note's title, author, rating in whole stars, day, shelf and tags", async () => {
    const notes = siteNotes(FIXTURE_FILES).filter((note) => !note.draft);
    const back = await readGoodreads(goodreadsCsv(notes, 2, "https://site.example"), 2);
    expect(back.skipped).toEqual([]);
    expect(back.readings).toHaveLength(notes.length);
    for (const [index, note] of notes.entries()) {
      const again = back.readings[index];
      expect(again).toMatchObject({ title: note.title, author: note.author, date: note.date, shelf: note.shelf });
      expect(
        again?.labels.map((label) => resolveTags([label], DECLARED.concat(note.tags), new Map(), false).tags[0]),
      ).toEqual(note.tags);
      if (note.rating !== null) expect(again?.rating).toBe(starsOf(note.rating, 2) * 2);
    }
  });
});

describe("spreadsheet formulas in the exported file", () => {
  const FORMULAS = ['=HYPERLINK("http://x","y")', "+SUM(1,1)", "-2+3", "@SUM(1)", "\tTab-led Title", "\rCR-led Title"];
  const siteNote = (title: string, overrides: Partial<SiteNote> = {}): SiteNote => ({
    slug: "x",
    path: "content/notes/x.md",
    draft: false,
    title,
    author: "Maren Holt",
    isbn: "9780306406157",
    series: null,
    shelf: "read",
    date: "2021-03-14",
    rating: 8,
    tags: ["Fiction"],
    review: "",
    ...overrides,
  });
  /** The cells of each row as a spreadsheet reads them: the file's own text, unquoted, nothing removed. */
  const cellsOf = (csv: string) =>
    parseCsvSync(csv, { columns: true, record_delimiter: "\n" }) as Record<string, string>[];

  test("a cell that starts with =, +, -, @, a tab or a carriage return gets a quote before it and is quoted", () => {
    const csv = goodreadsCsv(
      FORMULAS.map((title) => siteNote(title, { author: title })),
      2,
      "https://site.example",
    );
    for (const [index, cell] of cellsOf(csv).entries()) {
      expect(cell.Title).toBe(`'${FORMULAS[index]}`);
      expect(cell.Author).toBe(`'${FORMULAS[index]}`);
    }
    expect(csv).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csv).toContain('"\'+SUM(1,1)"');
  });

  test('Goodreads\' own ="…" form of the ISBN stays as its importer expects it, and other cells as they are', () => {
    const [cell] = cellsOf(goodreadsCsv([siteNote("Plain Title")], 2, "https://site.example"));
    expect(cell).toMatchObject({ Title: "Plain Title", ISBN: '=""', ISBN13: '="9780306406157"', "My Rating": "4" });
  });

  test("read back, every title, author and review is as it was, a title that really starts with a quote too", async () => {
    const titles = [...FORMULAS, "'Salem's Lot", "''Tis the Season", "'=Quoted Formula"];
    const notes = titles.map((title) => siteNote(title, { author: `-${title}`, review: "@SUM(1) is no formula here" }));
    const back = await readGoodreads(goodreadsCsv(notes, 2, "https://site.example"), 2);
    expect(back.skipped).toEqual([]);
    expect(back.readings.map(({ title, author, rating, review }) => ({ title, author, rating, review }))).toEqual(
      titles.map((title) => ({ title, author: `-${title}`, rating: 8, review: "@SUM(1) is no formula here" })),
    );
  });
});
