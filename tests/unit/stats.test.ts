/** The reading stats of /stats, on the fixture notes and on made-up ones. */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue } from "../../catalogue/load.ts";
import {
  averageRating,
  averageRatingPerYear,
  formatDuration,
  meanRating,
  mostCommonTags,
  notesPerTag,
  notesPerYear,
  ratingDistribution,
  readingStats,
  readingTime,
  type StatsNote,
  TOP_RATED_LIMIT,
  topRated,
} from "../../catalogue/stats.ts";

/**
 * The figures below were worked out by hand on the fixture's first eight books read; the books the
 * shelves, quotes and re-reading tests added (The Glass Orchard) are left out so they still hold.
 */
const notes = buildCatalogue(readContentFiles(join(import.meta.dirname, "../fixtures"))).readNotes.filter(
  (note) => note.name !== "The Glass Orchard",
);
const slugs = (items: readonly { slug: string }[]) => items.map((item) => item.slug);

const made = (fields: Partial<StatsNote> & { slug?: string } = {}): StatsNote & { slug: string } => ({
  slug: "x",
  name: "X",
  author: "A",
  date: "2020-01-01",
  rating: 5,
  time: 0,
  tags: ["T"],
  ...fields,
});

describe("notes per year", () => {
  test("every year from the first note to the last, oldest first, years without a note at 0", () => {
    expect(notesPerYear(notes)).toEqual([
      { year: "2014", count: 1 },
      { year: "2015", count: 1 },
      { year: "2016", count: 1 },
      { year: "2017", count: 1 },
      { year: "2018", count: 1 },
      { year: "2019", count: 1 },
      { year: "2020", count: 0 },
      { year: "2021", count: 0 },
      { year: "2022", count: 1 },
      { year: "2023", count: 0 },
      { year: "2024", count: 1 },
    ]);
  });

  test("counts several notes of a year and answers [] for no notes", () => {
    expect(notesPerYear([made({ date: "2021-03-01" }), made({ date: "2021-12-31" })])).toEqual([
      { year: "2021", count: 2 },
    ]);
    expect(notesPerYear([])).toEqual([]);
  });
});

describe("ratings", () => {
  test("the distribution has ten buckets, highest first, with 10 in the top one", () => {
    const buckets = ratingDistribution(notes);
    expect(buckets.map((bucket) => bucket.label)).toEqual([
      "9–10",
      "8–8.9",
      "7–7.9",
      "6–6.9",
      "5–5.9",
      "4–4.9",
      "3–3.9",
      "2–2.9",
      "1–1.9",
      "0–0.9",
    ]);
    expect(buckets.map((bucket) => bucket.count)).toEqual([2, 4, 1, 0, 0, 0, 1, 0, 0, 0]);
    const edges = ratingDistribution([
      made({ rating: 10 }),
      made({ rating: 9 }),
      made({ rating: 8.9 }),
      made({ rating: 0 }),
    ]);
    expect(edges.map((bucket) => bucket.count)).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  test("the average rating per year, oldest first, only years with notes", () => {
    expect(averageRatingPerYear(notes)).toEqual([
      { year: "2014", average: 9.2, count: 1 },
      { year: "2015", average: 8.7, count: 1 },
      { year: "2016", average: 9.6, count: 1 },
      { year: "2017", average: 8.1, count: 1 },
      { year: "2018", average: 7.5, count: 1 },
      { year: "2019", average: 8.7, count: 1 },
      { year: "2022", average: 8.4, count: 1 },
      { year: "2024", average: 3.4, count: 1 },
    ]);
    expect(
      averageRatingPerYear([made({ rating: 7 }), made({ rating: 8.5 }), made({ date: "2019-05-05", rating: 6 })]),
    ).toEqual([
      { year: "2019", average: 6, count: 1 },
      { year: "2020", average: 7.8, count: 2 },
    ]);
  });

  test("averages round to one decimal from whole tenths, half up", () => {
    // 63.6 / 8 = 7.95: summing the floats would give 7.9499… and round down.
    expect(averageRating(notes)).toBe(8);
    expect(meanRating([7.1, 7.2])).toBe(7.2);
    expect(meanRating([7, 7, 8])).toBe(7.3);
    expect(meanRating([])).toBe(0);
  });
});

describe("tags", () => {
  test("most used first, ties by name", () => {
    expect(notesPerTag(notes)).toEqual([
      { tag: "Philosophy", count: 3 },
      { tag: "Psychology", count: 3 },
      { tag: "Self-help", count: 3 },
      { tag: "Spirituality", count: 2 },
      { tag: "Biography", count: 1 },
      { tag: "Fiction", count: 1 },
      { tag: "History", count: 1 },
      { tag: "Productivity", count: 1 },
    ]);
    expect(mostCommonTags(notes, 3).map((entry) => entry.tag)).toEqual(["Philosophy", "Psychology", "Self-help"]);
    expect(mostCommonTags(notes)).toHaveLength(8);
  });
});

describe("top-rated notes", () => {
  test("best first, ties by title, each book once with its best-rated reading", () => {
    expect(slugs(topRated(notes))).toEqual([
      "germinal",
      "mans-search-for-meaning",
      "all-about-love",
      "atomic-habits",
      "the-four-agreements-2",
      "12-rules-for-life",
      "deep-work",
    ]);
    expect(slugs(topRated(notes, 2))).toEqual(["germinal", "mans-search-for-meaning"]);
  });

  test("a re-read with the same rating keeps the newest reading; at most TOP_RATED_LIMIT notes", () => {
    const old = made({ slug: "b", name: "Book", rating: 9, date: "2015-01-01" });
    const reread = made({ slug: "b-2", name: "book", rating: 9, date: "2021-01-01" });
    expect(slugs(topRated([old, reread]))).toEqual(["b-2"]);
    const many = Array.from({ length: 15 }, (_, index) => made({ slug: `n${index}`, name: `N${index}` }));
    expect(topRated(many)).toHaveLength(TOP_RATED_LIMIT);
  });
});

describe("reading time", () => {
  test("sums the known times and counts the unknown (0) apart", () => {
    expect(readingTime(notes)).toEqual({ totalMinutes: 558, known: 7, unknown: 1 });
    expect(readingTime([])).toEqual({ totalMinutes: 0, known: 0, unknown: 0 });
  });

  test("formats minutes as hours and minutes", () => {
    expect(formatDuration(558)).toBe("9 hours 18 minutes");
    expect(formatDuration(60)).toBe("1 hour");
    expect(formatDuration(61)).toBe("1 hour 1 minute");
    expect(formatDuration(45)).toBe("45 minutes");
    expect(formatDuration(0)).toBe("0 minutes");
    expect(formatDuration(23_802)).toBe("396 hours 42 minutes");
    expect(formatDuration(60_000)).toBe("1,000 hours");
  });
});

test("readingStats gathers every figure", () => {
  const stats = readingStats(notes);
  expect(stats.total).toBe(8);
  expect(stats.firstYear).toBe("2014");
  expect(stats.lastYear).toBe("2024");
  expect(stats.averageRating).toBe(8);
  expect(stats.perYear).toEqual(notesPerYear(notes));
  expect(stats.ratings).toEqual(ratingDistribution(notes));
  expect(stats.averagePerYear).toEqual(averageRatingPerYear(notes));
  expect(stats.tags).toEqual(mostCommonTags(notes));
  expect(stats.time).toEqual(readingTime(notes));
});
