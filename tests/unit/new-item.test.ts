/** `npm run new`: the pure part (catalogue/new-item.ts) and the script on a copy of the fixture tree. */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseContentDate } from "../../catalogue/dates.ts";
import { loadCatalogue, readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue, type ContentFile } from "../../catalogue/load.ts";
import {
  chooseSlug,
  contentDateOf,
  contentPath,
  type NewRequest,
  noteFileText,
  parseNewArgs,
  writingFileText,
} from "../../catalogue/new-item.ts";

const PROJECT_ROOT = join(import.meta.dirname, "../..");
const FIXTURE_ROOT = join(import.meta.dirname, "../fixtures");
const files = readContentFiles(FIXTURE_ROOT);

function parsed(args: string[]): NewRequest {
  const result = parseNewArgs(args);
  if (!result.ok) throw new Error(result.error);
  return result.request;
}

function parseError(args: string[]): string {
  const result = parseNewArgs(args);
  if (result.ok) throw new Error(`expected an error for ${args.join(" ")}`);
  return result.error;
}

/** Loads the fixture tree plus one new file and returns the catalogue. */
const withFile = (path: string, text: string) => buildCatalogue([...files, { path, text } satisfies ContentFile]);

describe("parseNewArgs", () => {
  test("reads a note with author, tags, rating and root", () => {
    expect(
      parsed([
        "note",
        "Atomic Habits",
        "--author",
        "James Clear",
        "--tags",
        "Self-help, Psychology",
        "--rating",
        "8.7",
        "--root",
        "/tmp/x",
      ]),
    ).toEqual({
      kind: "note",
      title: "Atomic Habits",
      author: "James Clear",
      tags: ["Self-help", "Psychology"],
      rating: 8.7,
      shelf: null,
      root: "/tmp/x",
    });
  });

  test("accepts --name=value, and the options in any order", () => {
    expect(parsed(["note", "--tags=Fiction", "--author=Émile Zola", "Germinal"])).toEqual({
      kind: "note",
      title: "Germinal",
      author: "Émile Zola",
      tags: ["Fiction"],
      rating: null,
      shelf: null,
      root: null,
    });
  });

  test("reads a writing", () => {
    expect(parsed(["write", "Why Me?"])).toEqual({ kind: "write", title: "Why Me?", root: null });
    expect(parsed(["write", "Be", "--root", "dir"])).toEqual({ kind: "write", title: "Be", root: "dir" });
  });

  test("a note needs only its title and author, as the READMEs show it: tags and rating are optional", () => {
    expect(parsed(["note", "Atomic Habits", "--author", "James Clear"])).toEqual({
      kind: "note",
      title: "Atomic Habits",
      author: "James Clear",
      tags: null,
      rating: null,
      shelf: null,
      root: null,
    });
  });

  test("a note without --author is refused", () => {
    expect(parseError(["note", "Atomic Habits", "--tags", "Self-help"])).toContain('--author "Name"');
    expect(parseError(["note", "Atomic Habits", "--author", " ", "--tags", "Self-help"])).toContain("--author");
  });

  test("1 to 3 tags; duplicates and blanks are dropped", () => {
    expect(parsed(["note", "T", "--author", "A", "--tags", "A, A,,B"])).toMatchObject({ tags: ["A", "B"] });
    expect(parseError(["note", "T", "--author", "A", "--tags", "A,B,C,D"])).toContain("1 to 3 tags");
    expect(parseError(["note", "T", "--author", "A", "--tags", " , "])).toContain("1 to 3 tags");
  });

  test("--rating is a number from 0 to 10 with at most one decimal", () => {
    const base = ["note", "T", "--author", "A", "--tags", "X", "--rating"];
    expect(parsed([...base, "0"])).toMatchObject({ rating: 0 });
    expect(parsed([...base, "10"])).toMatchObject({ rating: 10 });
    expect(parseError([...base, "11"])).toContain("0 to 10");
    expect(parseError([...base, "-1"])).toContain("0 to 10");
    expect(parseError([...base, "great"])).toContain("0 to 10");
    expect(parseError([...base, ""])).toContain("0 to 10");
    expect(parseError([...base, "8.75"])).toContain("one decimal");
  });

  test("refuses unknown kinds, unknown options, missing values, repeats and an unquoted title", () => {
    expect(parseError([])).toContain("Usage:");
    expect(parseError(["book", "T"])).toContain('Unknown kind "book"');
    expect(parseError(["write", "T", "--author", "A"])).toContain("no option --author");
    expect(parseError(["note", "T", "--autor", "A"])).toContain("no option --autor");
    expect(parseError(["note", "T", "--author"])).toContain("--author needs a value");
    expect(parseError(["note", "T", "--author", "--tags", "X"])).toContain("--author needs a value");
    expect(parseError(["write", "T", "--root", "a", "--root", "b"])).toContain("given twice");
    expect(parseError(["write", "The", "Title"])).toContain("Put the title in quotes");
    expect(parseError(["write"])).toContain("Give the title");
    expect(parseError(["write", "?!"])).toContain("at least one letter or digit");
  });
});

describe("chooseSlug", () => {
  test("a new title gets its slug", () => {
    expect(chooseSlug("Zero to One", new Set(["atomic-habits"]))).toBe("zero-to-one");
    expect(chooseSlug("Man's Search for Meaning", new Set())).toBe("mans-search-for-meaning");
  });

  test("a re-read gets the next free -N: the-four-agreements → -2 → -3", () => {
    const existing = new Set<string>();
    const chosen: string[] = [];
    for (let read = 0; read < 3; read++) {
      const slug = chooseSlug("The Four Agreements", existing);
      chosen.push(slug);
      existing.add(slug);
    }
    expect(chosen).toEqual(["the-four-agreements", "the-four-agreements-2", "the-four-agreements-3"]);
  });

  test("the first free number is taken, and it goes past 9", () => {
    expect(chooseSlug("Be", new Set(["be", "be-3"]))).toBe("be-2");
    const nine = new Set(["be", ...Array.from({ length: 8 }, (_, index) => `be-${index + 2}`)]);
    expect(chooseSlug("Be", nine)).toBe("be-10");
  });
});

describe("file text", () => {
  test("today is written M/D/YY in 20YY", () => {
    expect(contentDateOf(new Date(2025, 5, 6))).toBe("6/6/25");
    expect(contentDateOf(new Date(2009, 0, 2))).toBe("1/2/09");
    expect(contentDateOf(new Date(2030, 11, 31))).toBe("12/31/30");
    expect(parseContentDate(contentDateOf(new Date(2009, 0, 2)))).toBe("2009-01-02");
  });

  test("a note without tags or rating is a valid draft with both as prompts in comments, and is not published", () => {
    for (const missing of [
      { tags: null, rating: null },
      { tags: ["Philosophy"], rating: null },
      { tags: null, rating: 8 },
    ]) {
      const text = noteFileText({ title: "Zero to One", author: "Peter Thiel", ...missing }, "6/6/25");
      expect(text).toMatch(/^draft: true$/m);
      expect(text).toMatch(/^# .*delete the line "draft: true"/m);
      if (missing.tags === null) expect(text).toMatch(/^# tags: .*content\/site\.yaml/m);
      if (missing.rating === null) expect(text).toMatch(/^# rating: .*0 to 10/m);
      expect(text).not.toMatch(/^rating: 0/m);
      const catalogue = withFile(contentPath("note", "zero-to-one"), text);
      expect(catalogue.notes.map((book) => book.slug)).not.toContain("zero-to-one");
      // Published once the owner fills in what the prompts ask for and deletes the draft line.
      const finished = text
        .replace(/^draft: true\n/m, "")
        .replace(/^# tags: .*$/m, 'tags: ["Philosophy"]')
        .replace(/^# rating: .*$/m, "rating: 7.5");
      const note = withFile(contentPath("note", "zero-to-one"), finished).notes.find(
        (book) => book.slug === "zero-to-one",
      );
      expect(note).toMatchObject({ name: "Zero to One", author: "Peter Thiel", date: "2025-06-06", time: 0, html: "" });
    }
  });

  test("--shelf puts the new note on a shelf: a book being read or wanted is published at once, with no rating", () => {
    expect(parsed(["note", "T", "--author", "A", "--shelf", "reading"])).toMatchObject({ shelf: "reading" });
    expect(parseError(["note", "T", "--author", "A", "--shelf", "finished"])).toContain(
      "--shelf is one of reading, want, did-not-finish",
    );
    expect(parseError(["note", "T", "--author", "A", "--shelf", "want", "--rating", "8"])).toContain(
      "takes no --rating",
    );
    for (const shelf of ["reading", "want"] as const) {
      const text = noteFileText(
        { title: "Zero to One", author: "Peter Thiel", tags: null, rating: null, shelf },
        "6/6/25",
      );
      expect(text).not.toContain("draft: true");
      expect(text).not.toMatch(/rating/);
      const note = withFile(contentPath("note", "zero-to-one"), text).notes.find((book) => book.slug === "zero-to-one");
      expect(note).toMatchObject({ shelf, rating: null, date: "2025-06-06" });
    }
    const givenUp = noteFileText(
      { title: "Zero to One", author: "Peter Thiel", tags: ["Philosophy"], rating: null, shelf: "did-not-finish" },
      "6/6/25",
    );
    expect(givenUp).not.toContain("draft: true");
    expect(withFile(contentPath("note", "zero-to-one"), givenUp).listedNotes.map((book) => book.slug)).toContain(
      "zero-to-one",
    );
  });

  test("a note with a rating, quotes, backslashes and accents in its fields loads them exactly", () => {
    const title = 'The "Real" Story: A\\B';
    const text = noteFileText(
      { title, author: "Émile Zola # not a comment", tags: ["Fiction", "Philosophy"], rating: 8.5 },
      "2/29/24",
    );
    expect(text).not.toContain("draft");
    const slug = chooseSlug(title, new Set());
    const note = withFile(contentPath("note", slug), text).notes.find((book) => book.slug === slug);
    expect(note).toMatchObject({
      name: title,
      author: "Émile Zola # not a comment",
      tags: ["Fiction", "Philosophy"],
      rating: 8.5,
      date: "2024-02-29",
    });
  });

  test("a re-read file loads next to the first read", () => {
    const slug = chooseSlug("The Four Agreements", new Set(["the-four-agreements", "the-four-agreements-2"]));
    const text = noteFileText(
      { title: "The Four Agreements", author: "Don Miguel Ruiz", tags: ["Spirituality"], rating: 9 },
      "6/6/25",
    );
    const books = withFile(contentPath("note", slug), text).notes;
    expect(
      books
        .filter((book) => book.name === "The Four Agreements")
        .map((book) => book.slug)
        .sort(),
    ).toEqual(["the-four-agreements", "the-four-agreements-2", "the-four-agreements-3"]);
  });

  test("a writing is a draft with no placeholder text; without the draft line it loads with today's date, tagged Write", () => {
    const text = writingFileText({ title: "Why Not?" }, "6/6/25");
    expect(text).toMatch(/^draft: true$/m);
    expect(withFile(contentPath("write", "why-not"), text).writings.map((item) => item.slug)).not.toContain("why-not");
    const published = withFile(contentPath("write", "why-not"), text.replace(/^draft: true\n/m, "")).writings.find(
      (item) => item.slug === "why-not",
    );
    expect(published).toMatchObject({
      name: "Why Not?",
      date: "2025-06-06",
      time: 1,
      tags: ["Write"],
      path: "/write/why-not",
      html: "",
    });
  });

  test("contentPath puts notes in content/notes and writings in content/write", () => {
    expect(contentPath("note", "be")).toBe("content/notes/be.md");
    expect(contentPath("write", "be")).toBe("content/write/be.md");
  });
});

describe("npm run new (the script, as a child process)", () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  function copyOfFixture(): string {
    const dir = mkdtempSync(join(tmpdir(), "new-content-"));
    temps.push(dir);
    cpSync(FIXTURE_ROOT, dir, { recursive: true });
    return dir;
  }

  const run = (root: string, args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/new-content.ts", ...args, "--root", root], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
    });

  const listing = (root: string) => readdirSync(join(root, "content"), { recursive: true }).sort();

  test("writes a re-read as the next free -N, prints its path, and the tree still loads", () => {
    const root = copyOfFixture();
    const result = run(root, [
      "note",
      "The Four Agreements",
      "--author",
      "Don Miguel Ruiz",
      "--tags",
      "Spirituality,Self-help",
      "--rating",
      "9",
    ]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Created content/notes/the-four-agreements-3.md\n");
    expect(result.stdout).toContain(
      'This is a re-read: content/notes/the-four-agreements.md, content/notes/the-four-agreements-2.md already hold "The Four Agreements".',
    );
    const note = loadCatalogue(root).notes.find((book) => book.slug === "the-four-agreements-3");
    expect(note).toMatchObject({ name: "The Four Agreements", author: "Don Miguel Ruiz", rating: 9, time: 0 });
    expect(note?.date).toBe(parseContentDate(contentDateOf(new Date())));
  });

  test("writes a note as both READMEs show it (title and author only) as a draft, and says what is left to do", () => {
    const root = copyOfFixture();
    const result = run(root, ["note", "Zero to One", "--author", "Peter Thiel"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Created content/notes/zero-to-one.md as a draft");
    expect(result.stdout).toContain('Set the tags and rating in the file, then delete the line "draft: true"');
    expect(result.stdout).not.toContain("re-read");
    expect(readFileSync(join(root, "content/notes/zero-to-one.md"), "utf8")).toMatch(/^draft: true$/m);
    expect(loadCatalogue(root).notes.map((book) => book.slug)).not.toContain("zero-to-one");
  });

  test("refuses a tag that content/site.yaml does not declare, suggesting the nearest, and writes nothing", () => {
    const root = copyOfFixture();
    const before = listing(root);
    const result = run(root, ["note", "Zero to One", "--author", "Peter Thiel", "--tags", "Psychologgy"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('did you mean "Psychology"?');
    expect(listing(root)).toEqual(before);
  });

  test("writes a writing and refuses a second one with the same title", () => {
    const root = copyOfFixture();
    const first = run(root, ["write", "Hello, World"]);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain("content/write/hello-world.md");
    expect(first.stdout).toContain("as a draft");
    expect(readContentFiles(root).map((file) => file.path)).toContain("content/write/hello-world.md");
    const before = readFileSync(join(root, "content/write/hello-world.md"), "utf8");
    const second = run(root, ["write", "Hello World"]);
    expect(second.status).toBe(1);
    expect(second.stderr).toContain("content/write/hello-world.md already exists");
    expect(readFileSync(join(root, "content/write/hello-world.md"), "utf8")).toBe(before);
  });

  test("a 300-character title is written under its slug cut at a word, within 120 bytes, and the tree still loads", () => {
    const root = copyOfFixture();
    const title = `The ${"Unreasonably Long Subtitle ".repeat(11)}of Everything`.trim();
    expect(title.length).toBeGreaterThan(300);
    const result = run(root, ["write", title]);
    expect(result.status).toBe(0);
    const [, slug = ""] = /content\/write\/(.+)\.md/.exec(result.stdout) ?? [];
    expect(slug.length).toBeLessThanOrEqual(120);
    expect(slug).toMatch(/^the-unreasonably-long-subtitle-.*-subtitle$/);
    writeFileSync(
      join(root, "content/write", `${slug}.md`),
      readFileSync(join(root, "content/write", `${slug}.md`), "utf8").replace("draft: true\n", ""),
    );
    expect(loadCatalogue(root).writings.find((writing) => writing.slug === slug)?.name).toBe(title);
  });

  test("refuses to write when the existing content does not load, and writes nothing", () => {
    const root = copyOfFixture();
    const broken = join(root, "content/notes/germinal.md");
    writeFileSync(broken, readFileSync(broken, "utf8").replace("rating: 9.6", "rating: 11"));
    const result = run(root, ["write", "Fresh"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('content/notes/germinal.md: field "rating"');
    expect(existsSync(join(root, "content/write/fresh.md"))).toBe(false);
  });
});
