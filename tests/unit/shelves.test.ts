/**
 * The shelves of a note file: what `shelf` may say, and what each shelf asks of `rating` and
 * `tags`. A note without a shelf is a book read to the end and keeps every rule it had.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue, ContentError, type ContentFile } from "../../catalogue/load.ts";

const files = readContentFiles(join(import.meta.dirname, "../fixtures"));

function withNote(slug: string, frontMatter: string, body = ""): ContentFile[] {
  return [
    ...files.filter((file) => file.path !== `content/notes/${slug}.md`),
    {
      path: `content/notes/${slug}.md`,
      text: `---\n${frontMatter}\n---\n${body}`,
    },
  ];
}

function loadError(contentFiles: ContentFile[]): ContentError {
  try {
    buildCatalogue(contentFiles);
  } catch (error) {
    if (error instanceof ContentError) return error;
    throw error;
  }
  throw new Error("expected a ContentError");
}

const book = 'name: "Salt Harbour"\nauthor: "Ida Marren"\ndate: "3/2/24"\ntime: 0';

describe("a note's shelf", () => {
  test("no shelf means read: the rating and tags are required as before", () => {
    const missingRating = loadError(withNote("salt-harbour", `${book}\ntags: ["Fiction"]`));
    expect(missingRating.message).toBe('content/notes/salt-harbour.md: field "rating" is required but missing');
    const missingTags = loadError(withNote("salt-harbour", `${book}\nrating: 7`));
    expect(missingTags.message).toBe('content/notes/salt-harbour.md: field "tags" is required but missing');
    const note = buildCatalogue(withNote("salt-harbour", `${book}\ntags: ["Fiction"]\nrating: 7`)).notes.find(
      (candidate) => candidate.slug === "salt-harbour",
    );
    expect(note).toMatchObject({ shelf: "read", rating: 7, tags: ["Fiction"] });
  });

  test.each(["reading", "want"])("a book on the %s shelf has no rating, and may leave out its tags", (shelf) => {
    const rated = loadError(withNote("salt-harbour", `${book}\nshelf: ${shelf}\nrating: 7`));
    expect(rated.field).toBe("rating");
    expect(rated.problem).toBe(
      `must be left out on the "${shelf}" shelf: a book not read yet has no rating (give it one when you finish it and remove the shelf)`,
    );
    const catalogue = buildCatalogue(withNote("salt-harbour", `${book}\nshelf: ${shelf}`));
    const note = catalogue.notes.find((candidate) => candidate.slug === "salt-harbour");
    expect(note).toMatchObject({ shelf, rating: null, tags: [], date: "2024-03-02" });
    expect(catalogue.listedNotes.map((listed) => listed.slug)).not.toContain("salt-harbour");
    expect(catalogue.readNotes.map((read) => read.slug)).not.toContain("salt-harbour");
  });

  test("a book given up may have a rating, needs its tags, and is listed but not counted as read", () => {
    const untagged = loadError(withNote("salt-harbour", `${book}\nshelf: did-not-finish`));
    expect(untagged.message).toBe('content/notes/salt-harbour.md: field "tags" is required but missing');
    const unrated = buildCatalogue(withNote("salt-harbour", `${book}\nshelf: did-not-finish\ntags: ["Fiction"]`));
    expect(unrated.notes.find((note) => note.slug === "salt-harbour")).toMatchObject({
      shelf: "did-not-finish",
      rating: null,
    });
    const rated = buildCatalogue(
      withNote("salt-harbour", `${book}\nshelf: did-not-finish\ntags: ["Fiction"]\nrating: 3.5`),
    );
    expect(rated.notes.find((note) => note.slug === "salt-harbour")).toMatchObject({ rating: 3.5 });
    expect(rated.listedNotes.map((note) => note.slug)).toContain("salt-harbour");
    expect(rated.readNotes.map((note) => note.slug)).not.toContain("salt-harbour");
  });

  test("an unknown shelf, or read written out, is refused with the shelves it may be", () => {
    for (const shelf of ["finished", "read", "Reading"]) {
      const error = loadError(withNote("salt-harbour", `${book}\nshelf: ${shelf}\ntags: ["Fiction"]\nrating: 7`));
      expect(error.field).toBe("shelf");
      expect(error.problem).toBe("must be one of reading, want, did-not-finish; leave it out for a book you have read");
    }
  });

  test("a draft may leave out the rating on any shelf but never hold one a shelf refuses", () => {
    const draft = buildCatalogue(withNote("salt-harbour", `${book}\ndraft: true\nshelf: did-not-finish`));
    expect(draft.notes.map((note) => note.slug)).not.toContain("salt-harbour");
    const error = loadError(withNote("salt-harbour", `${book}\ndraft: true\nshelf: want\nrating: 5`));
    expect(error.field).toBe("rating");
  });
});

describe("the yearly reading goal", () => {
  const site = files.find((file) => file.path === "content/site.yaml");
  const withGoal = (goal: string): ContentFile[] =>
    files.map((file) => (file === site ? { ...file, text: `${file.text}\ngoal: ${goal}\n` } : file));

  test("maps a year to a number of books, and is optional", () => {
    expect(buildCatalogue(withGoal("{ 2024: 12, 2025: 20 }")).site.goal).toEqual({ "2024": 12, "2025": 20 });
    const { site: withoutGoal } = buildCatalogue(
      files.map((file) => (file === site ? { ...file, text: file.text.replace(/^goal:.*$/m, "") } : file)),
    );
    expect(withoutGoal.goal).toBeTypeOf("object");
  });

  test("a year that is not four digits, or a goal that is not a whole number of books, stops the load", () => {
    expect(loadError(withGoal("{ 24: 12 }")).message).toBe(
      'content/site.yaml: field "goal.24" must be a year written with four digits, e.g. 2025',
    );
    expect(loadError(withGoal("{ 2024: 2.5 }")).message).toBe(
      'content/site.yaml: field "goal.2024" must be a whole number of books',
    );
  });
});
