/** A book's series: read from Goodreads' title suffix or the note's own field, shown quietly, written back for Goodreads. */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue, type ContentFile } from "../../catalogue/load.ts";
import { goodreadsTitle, seriesText, splitSeries } from "../../catalogue/series.ts";

describe("splitSeries", () => {
  test("Goodreads' suffixes give the bare title and the series' name and number", () => {
    expect(splitSeries("The Way of Kings (The Stormlight Archive, #1)")).toEqual({
      title: "The Way of Kings",
      series: { name: "The Stormlight Archive", number: 1 },
    });
    expect(splitSeries("Lantern Keepers (Harbour Lights #2)")).toEqual({
      title: "Lantern Keepers",
      series: { name: "Harbour Lights", number: 2 },
    });
    expect(splitSeries("Between Tides (Harbour Lights, #1.5)").series).toEqual({ name: "Harbour Lights", number: 1.5 });
    expect(splitSeries("The Collected Tides (Tides, #1-3)").series).toEqual({ name: "Tides", number: "1-3" });
    expect(splitSeries("Night Ferry (Tides, #0)").series).toEqual({ name: "Tides", number: 0 });
  });

  test("a book in several series keeps the first, and the whole suffix leaves the title", () => {
    expect(splitSeries("Guards of Salt (Saltmarsh, #8; Saltmarsh Watch, #1)")).toEqual({
      title: "Guards of Salt",
      series: { name: "Saltmarsh", number: 8 },
    });
  });

  test("parentheses that do not end in #<number> stay in the title", () => {
    for (const title of [
      "Meditations (Penguin Classics)",
      "Thinking (Fast and Slow)",
      "Catch (#1 Bestseller)",
      "(Series, #1)",
      "The Harbour (Tides, #1) Revisited",
    ]) {
      expect(splitSeries(title), title).toEqual({ title, series: null });
    }
    expect(splitSeries("Mirrors (Old Edition) (Tides, #2)").title).toBe("Mirrors (Old Edition)");
  });
});

describe("the series as the site shows it and Goodreads writes it", () => {
  test("a quiet line: the name, then the book's place", () => {
    expect(seriesText({ name: "The Stormlight Archive", number: 1 })).toBe("The Stormlight Archive, book 1");
    expect(seriesText({ name: "Harbour Lights", number: 1.5 })).toBe("Harbour Lights, book 1.5");
    expect(seriesText({ name: "Tides", number: "1-3" })).toBe("Tides, books 1–3");
    expect(seriesText({ name: "Tides" })).toBe("Tides");
  });

  test("Goodreads' title reads back as the same title and series", () => {
    for (const series of [
      { name: "The Stormlight Archive", number: 1 },
      { name: "Harbour Lights", number: 1.5 },
      { name: "Tides", number: "1-3" },
    ]) {
      expect(splitSeries(goodreadsTitle("The Way of Kings", series))).toEqual({ title: "The Way of Kings", series });
    }
    expect(goodreadsTitle("The Way of Kings", null)).toBe("The Way of Kings");
    expect(goodreadsTitle("The Way of Kings", { name: "Tides" })).toBe("The Way of Kings");
  });
});

describe("a note's series in its file", () => {
  const FIXTURE_FILES = readContentFiles(join(import.meta.dirname, "../fixtures"));
  const withNote = (slug: string, front: string) =>
    buildCatalogue([
      ...FIXTURE_FILES,
      {
        path: `content/notes/${slug}.md`,
        text: `---\n${front}\nauthor: "Ines Vall"\ndate: "3/2/21"\ntags: ["Fiction"]\nrating: 7\ntime: 0\n---\n`,
      } satisfies ContentFile,
    ]).notes.find((note) => note.slug === slug);

  test("the series field is read, with or without a number", () => {
    expect(
      withNote("the-copper-gate", 'name: "The Copper Gate"\nseries: { name: "Tidewater", number: 1.5 }'),
    ).toMatchObject({ name: "The Copper Gate", series: { name: "Tidewater", number: 1.5 } });
    expect(withNote("the-copper-gate", 'name: "The Copper Gate"\nseries: { name: "Tidewater" }')?.series).toEqual({
      name: "Tidewater",
    });
    expect(withNote("the-copper-gate", 'name: "The Copper Gate"')?.series).toBeUndefined();
  });

  test("a name written with Goodreads' suffix, as earlier imports wrote it, reads as the bare name and its series", () => {
    expect(withNote("the-copper-gate", 'name: "The Copper Gate (The Tidewater Cycle, #1)"')).toMatchObject({
      name: "The Copper Gate",
      series: { name: "The Tidewater Cycle", number: 1 },
    });
  });

  test("a number that is neither a number nor a range stops the build with one line", () => {
    expect(() =>
      withNote("the-copper-gate", 'name: "The Copper Gate"\nseries: { name: "Tidewater", number: "first" }'),
    ).toThrow(
      'content/notes/the-copper-gate.md: field "series.number" must be a number such as 2 or 1.5, or a range such as "1-3"',
    );
    expect(() => withNote("the-copper-gate", 'name: "The Copper Gate"\nseries: { number: 2 }')).toThrow(
      'content/notes/the-copper-gate.md: field "series.name" is required but missing',
    );
  });
});
