/** The shipped catalogue itself (content/): the sample the site, its features and its benchmark run on. */
import { describe, expect, test } from "vitest";
import { loadCatalogue } from "../../catalogue/disk.ts";
import { isSlugOf } from "../../catalogue/slug.ts";

const catalogue = loadCatalogue(process.cwd());
const year = (day: string) => Number(day.slice(0, 4));

describe("the shipped catalogue", () => {
  test("DA2 about 270 book notes dated 2014 to 2025, ratings 0–10 with one decimal, time 0 to about 179", () => {
    const notes = catalogue.books;
    expect(notes.length).toBeGreaterThanOrEqual(250);
    expect(notes.length).toBeLessThanOrEqual(290);
    expect(Math.min(...notes.map((note) => year(note.date)))).toBe(2014);
    expect(Math.max(...notes.map((note) => year(note.date)))).toBe(2025);
    const ratings = notes.map((note) => note.rating);
    expect(Math.min(...ratings)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...ratings)).toBeLessThanOrEqual(10);
    for (const rating of ratings) expect(Number(rating.toFixed(1))).toBe(rating);
    const times = notes.map((note) => note.time);
    expect(times.filter((time) => time === 0).length).toBeGreaterThan(0);
    expect(Math.max(...times)).toBeGreaterThanOrEqual(170);
    expect(Math.max(...times)).toBeLessThanOrEqual(180);
  });

  test("DA2 reviews on most notes before 2020 and none after", () => {
    const before = catalogue.books.filter((note) => year(note.date) < 2020);
    const reviewed = before.filter((note) => note.html !== "");
    expect(reviewed.length / before.length).toBeGreaterThan(0.6);
    expect(catalogue.books.filter((note) => year(note.date) >= 2020 && note.html !== "")).toEqual([]);
  });

  test("DA3 the tags include every tag the spec names, each note has 1 to 3", () => {
    for (const tag of [
      "Business",
      "Self-help",
      "Leadership",
      "Management",
      "Psychology",
      "Philosophy",
      "Fiction",
      "Biography",
      "Health",
      "Diet",
      "Programming",
      "Marketing",
      "Money",
      "Finance",
      "Investing",
      "Religion",
      "Spirituality",
      "Sports",
      "Design",
    ]) {
      expect(catalogue.tags).toContain(tag);
    }
    for (const note of catalogue.books) expect(note.tags.length).toBeGreaterThanOrEqual(1);
    for (const note of catalogue.books) expect(note.tags.length).toBeLessThanOrEqual(3);
  });

  test("R8 the fixed note slugs exist and every slug is its title's slug (a re-read gets -2)", () => {
    const slugs = new Set(catalogue.books.map((note) => note.slug));
    for (const slug of [
      "12-rules-for-life",
      "atomic-habits",
      "sapiens",
      "zero-to-one",
      "deep-work",
      "the-alchemist",
      "the-road",
      "the-four-agreements",
      "the-four-agreements-2",
    ]) {
      expect(slugs).toContain(slug);
    }
    for (const note of catalogue.books) expect(isSlugOf(note.slug, note.name), note.slug).toBe(true);
  });

  test("R9 about 90 writings, the fixed slugs among them, each its title's slug", () => {
    expect(catalogue.writings.length).toBeGreaterThanOrEqual(80);
    expect(catalogue.writings.length).toBeLessThanOrEqual(100);
    const slugs = new Set(catalogue.writings.map((writing) => writing.slug));
    for (const slug of [
      "anti-laissez-faire",
      "be",
      "blip",
      "consistency",
      "fear",
      "time",
      "why-me",
      "you-can-learn-anything",
    ]) {
      expect(slugs).toContain(slug);
    }
    for (const writing of catalogue.writings) expect(isSlugOf(writing.slug, writing.name)).toBe(true);
  });

  test("R4 R6 the four apps and the four jobs, one app still current", () => {
    expect(catalogue.apps.map((app) => app.slug).sort()).toEqual(["7-levels-deep", "aware", "muse", "twos"]);
    expect(catalogue.work.map((job) => job.slug).sort()).toEqual(["google", "qualcomm", "teradata", "trustwork"]);
    expect(catalogue.apps.filter((app) => app.endDate === "").length).toBeGreaterThanOrEqual(1);
  });

  test("R10 about 20 podcast episodes and 20 videos, each with its embed and release date", () => {
    expect(catalogue.withPodcast.length).toBeGreaterThanOrEqual(15);
    expect(catalogue.withVideo.length).toBeGreaterThanOrEqual(15);
    for (const note of catalogue.withPodcast) expect(note.podcastLink && note.releaseDate).toBeTruthy();
    for (const note of catalogue.withVideo) expect(note.youtubeLink && note.releaseDate).toBeTruthy();
  });

  test("no two items share a path", () => {
    const paths = catalogue.all.map((item) => item.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
