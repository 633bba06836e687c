/** The notes around a note: related notes, read before and after. */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue } from "../../catalogue/load.ts";
import { isSameBook, RELATED_LIMIT, type RelatableNote, relatedIndex } from "../../catalogue/related.ts";
import { first } from "../support/lists.ts";
import { seededRandom } from "../support/random.ts";
import { previousAndNext, relatedNotes } from "../support/related-reference.ts";

const { listedNotes: notes } = buildCatalogue(readContentFiles(join(import.meta.dirname, "../fixtures")));
const slugs = (items: readonly { slug: string }[]) => items.map((item) => item.slug);
const note = (slug: string) => {
  const found = notes.find((book) => book.slug === slug);
  if (!found) throw new Error(`no fixture note ${slug}`);
  return found;
};

const made = (slug: string, fields: Partial<RelatableNote> = {}): RelatableNote => ({
  slug,
  name: slug.toUpperCase(),
  author: `Author of ${slug}`,
  date: "2020-01-01",
  rating: 5,
  tags: ["Other"],
  ...fields,
});

describe("same book", () => {
  test("same title and author, case and accents ignored", () => {
    expect(isSameBook(note("the-four-agreements"), note("the-four-agreements-2"))).toBe(true);
    expect(isSameBook({ name: "Germinal", author: "Emile Zola" }, note("germinal"))).toBe(true);
    expect(isSameBook({ name: "The Four Agreements", author: "Someone Else" }, note("the-four-agreements"))).toBe(
      false,
    );
  });
});

describe("related notes", () => {
  test("shared tags, most shared first, then best rated, ties by title; never the note or its re-reads", () => {
    expect(slugs(relatedNotes(note("12-rules-for-life"), notes))).toEqual([
      "mans-search-for-meaning",
      "all-about-love",
      "atomic-habits",
    ]);
    expect(slugs(relatedNotes(note("the-four-agreements"), notes))).toEqual(["atomic-habits"]);
    expect(relatedNotes(note("deep-work"), notes)).toEqual([]);
  });

  test("another book read twice appears once, with its best-rated reading", () => {
    expect(slugs(relatedNotes(note("atomic-habits"), notes))).toEqual([
      "mans-search-for-meaning",
      "the-four-agreements-2",
      "12-rules-for-life",
    ]);
  });

  test("the same author comes first, then more shared tags beat a better rating", () => {
    const subject = made("subject", { author: "Ann", tags: ["A", "B"] });
    const notes = [
      subject,
      made("one-tag-great", { tags: ["A"], rating: 9.9 }),
      made("two-tags-poor", { tags: ["B", "A"], rating: 2 }),
      made("same-author", { author: "ann", tags: ["Z"], rating: 1 }),
      made("unrelated", { tags: ["Z"], rating: 10 }),
    ];
    expect(slugs(relatedNotes(subject, notes))).toEqual(["same-author", "two-tags-poor", "one-tag-great"]);
  });

  test(`at most ${RELATED_LIMIT}, or the limit given`, () => {
    const subject = made("subject", { tags: ["A"] });
    const notes = [
      subject,
      ...Array.from({ length: 10 }, (_, index) => made(`n${index}`, { tags: ["A"], rating: index })),
    ];
    const related = relatedNotes(subject, notes);
    expect(related).toHaveLength(RELATED_LIMIT);
    expect(slugs(related)).toEqual(["n9", "n8", "n7", "n6", "n5", "n4"]);
    expect(relatedNotes(subject, notes, 2)).toHaveLength(2);
  });
});

describe("read before and after", () => {
  test("the neighbours in date order: previous is older, next is newer", () => {
    expect(slugs(Object.values(previousAndNext(note("atomic-habits"), notes)).flatMap((n) => (n ? [n] : [])))).toEqual([
      "12-rules-for-life",
      "the-four-agreements-2",
    ]);
    const newest = previousAndNext(note("a-winter-almanac"), notes);
    expect(newest.next).toBeNull();
    expect(newest.previous?.slug).toBe("the-glass-orchard-2");
    const oldest = previousAndNext(note("mans-search-for-meaning"), notes);
    expect(oldest.previous).toBeNull();
    expect(oldest.next?.slug).toBe("all-about-love");
  });

  test("same-day notes follow the title order; a note not in the list has no neighbours", () => {
    const notes = [made("b", { name: "B" }), made("a", { name: "A" }), made("c", { name: "C", date: "2019-01-01" })];
    expect(previousAndNext(first(notes), notes)).toEqual({ previous: notes[2], next: notes[1] });
    expect(previousAndNext(made("zz"), notes)).toEqual({ previous: null, next: null });
  });
});

describe("the neighbours of every note at once", () => {
  test("the index answers exactly as the functions given the whole list, re-reads, shared authors and ties included", () => {
    const { int, pick } = seededRandom(7);
    const authors = ["Ana Ruiz", "ana ruiz", "Ána Ruiz", "Bo Lind", "Cy Moss", "Di Park", "Ed Vale"];
    const titles = ["Slow Days", "slow days", "Quiet Rooms", "Long Roads", "Small Hours", "Open Fields"];
    const tagPool = ["Psychology", "History", "Design", "Money", "Writing"];
    const many = Array.from({ length: 240 }, (_, index) =>
      made(`n${index}`, {
        name: `${pick(titles)}${int(4) === 0 ? "" : ` ${int(30)}`}`,
        author: pick(authors),
        date: `20${10 + int(10)}-0${1 + int(9)}-1${int(9)}`,
        rating: int(11),
        tags: [...new Set(Array.from({ length: 1 + int(3) }, () => pick(tagPool)))],
      }),
    );
    const index = relatedIndex(many);
    for (const note of many) {
      expect(slugs(index.relatedNotes(note))).toEqual(slugs(relatedNotes(note, many)));
      expect(slugs(index.relatedNotes(note, 40))).toEqual(slugs(relatedNotes(note, many, 40)));
      expect(index.previousAndNext(note)).toEqual(previousAndNext(note, many));
    }
  });
});
