/** The slug rule of content/README.md, for note and essay paths. */
import { describe, expect, test } from "vitest";
import { withoutSeries } from "../../catalogue/series.ts";
import { isSlugOf, slugify } from "../../catalogue/slug.ts";

describe("slugify", () => {
  test("the slug is the lowercase title with every other run of characters one hyphen", () => {
    expect(slugify("12 Rules for Life")).toBe("12-rules-for-life");
    expect(slugify("Atomic Habits")).toBe("atomic-habits");
    expect(slugify("Zero to One")).toBe("zero-to-one");
    expect(slugify("The Four Agreements")).toBe("the-four-agreements");
    expect(slugify("Sapiens: A Brief History of Humankind")).toBe("sapiens-a-brief-history-of-humankind");
    expect(slugify("1984")).toBe("1984");
  });

  test("apostrophes are dropped, straight or curly", () => {
    expect(slugify("Man's Search for Meaning")).toBe("mans-search-for-meaning");
    expect(slugify("Man’s Search for Meaning")).toBe("mans-search-for-meaning");
    expect(slugify("Can't Hurt Me")).toBe("cant-hurt-me");
  });

  test("accents are dropped", () => {
    expect(slugify("Café Society")).toBe("cafe-society");
    expect(slugify("Les Misérables")).toBe("les-miserables");
    expect(slugify("Über Leben")).toBe("uber-leben");
  });

  test("leading and trailing punctuation leaves no hyphen", () => {
    expect(slugify("  ...Why Me?!  ")).toBe("why-me");
    expect(slugify("A -- B & C")).toBe("a-b-c");
    expect(slugify("?!")).toBe("");
  });

  test("a series suffix stays in the title but not in the slug", () => {
    expect(slugify("The Way of Kings (The Stormlight Archive, #1)")).toBe("the-way-of-kings");
    expect(slugify("Lantern Keepers (Harbour Lights #2.5)")).toBe("lantern-keepers");
    expect(slugify("The Collected Tides (Tides, #1-3)")).toBe("the-collected-tides");
    expect(isSlugOf("the-way-of-kings-2", "The Way of Kings (The Stormlight Archive, #1)")).toBe(true);
  });

  test("parentheses that are no series suffix are part of the slug", () => {
    expect(slugify("Thinking (Fast and Slow)")).toBe("thinking-fast-and-slow");
    expect(slugify("(#1)")).toBe("1");
    expect(withoutSeries("(Series, #1)")).toBe("(Series, #1)");
  });

  test("writing titles follow the same rule", () => {
    expect(slugify("Anti Laissez-Faire")).toBe("anti-laissez-faire");
    expect(slugify("You Can Learn Anything")).toBe("you-can-learn-anything");
    expect(slugify("Why Me?")).toBe("why-me");
    expect(slugify("Be")).toBe("be");
  });
});

describe("a long title's slug", () => {
  const title = Array.from({ length: 40 }, (_, index) => `Word${index}`).join(" ");

  test("is cut after its last whole word within 116 characters, leaving a re-read's -999 within 120", () => {
    const slug = slugify(title);
    expect(slug.length).toBeLessThanOrEqual(116);
    expect(`${title.toLowerCase().replaceAll(" ", "-")}-`.startsWith(`${slug}-`)).toBe(true);
    expect(slugify(`${title} more`)).toBe(slug);
    expect(`${slug}-999`.length).toBeLessThanOrEqual(120);
  });

  test("a single word longer than that is cut where it must be; a slug that fits is left whole", () => {
    expect(slugify("x".repeat(300))).toBe("x".repeat(116));
    const fits = `${"a".repeat(57)} ${"b".repeat(58)}`;
    expect(slugify(fits)).toBe(`${"a".repeat(57)}-${"b".repeat(58)}`);
  });

  test("the cut slug and its re-reads still belong to the title", () => {
    expect(isSlugOf(slugify(title), title)).toBe(true);
    expect(isSlugOf(`${slugify(title)}-2`, title)).toBe(true);
  });
});

describe("isSlugOf", () => {
  test("the title's slug and a re-read's -2, -3, … belong to the title", () => {
    const title = "The Four Agreements";
    for (const slug of [
      "the-four-agreements",
      "the-four-agreements-2",
      "the-four-agreements-3",
      "the-four-agreements-9",
    ]) {
      expect(isSlugOf(slug, title), slug).toBe(true);
    }
  });

  test("a tenth or later re-read (-10, -11, -20) still belongs to the title", () => {
    for (const slug of ["the-four-agreements-10", "the-four-agreements-11", "the-four-agreements-20"]) {
      expect(isSlugOf(slug, "The Four Agreements"), slug).toBe(true);
    }
  });

  test("-1, -0, a leading zero, another title or another suffix do not", () => {
    for (const slug of [
      "the-four-agreements-1",
      "the-four-agreements-0",
      "the-four-agreements-02",
      "the-four-agreements-x",
      "the-four-agreement",
      "four-agreements",
      "the-four-agreements-2-2",
    ]) {
      expect(isSlugOf(slug, "The Four Agreements"), slug).toBe(false);
    }
  });

  test("a title that ends in a number keeps it", () => {
    expect(isSlugOf("catch-22", "Catch-22")).toBe(true);
    expect(isSlugOf("catch-22-2", "Catch-22")).toBe(true);
    expect(isSlugOf("1984", "1984")).toBe(true);
    expect(isSlugOf("1984-2", "1984")).toBe(true);
  });
});
