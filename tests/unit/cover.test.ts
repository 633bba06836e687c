/** The generated book cover (129x190, as in the notes list). */
import { describe, expect, test } from "vitest";
import { coverPath } from "../../catalogue/cover-path.ts";
import { present } from "../../catalogue/present.ts";
import { COVER_HEIGHT, COVER_WIDTH, coverSvg, wrapWords } from "../../outputs/cover.ts";

/**
 * A small well-formedness check: every tag is closed in order, attributes are quoted and hold no
 * raw < or ", text holds no raw <, and every & starts a character reference.
 */
function expectWellFormed(svg: string) {
  const stack: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  let index = 0;
  while (index < svg.length) {
    if (svg[index] === "<") {
      tag.lastIndex = index;
      const match = tag.exec(svg);
      if (!match) throw new Error(`malformed tag at ${index}: ${svg.slice(index, index + 40)}`);
      const [whole, closing, tagName, , selfClosing] = match;
      const name = present(tagName, "the tag pattern to capture the name");
      if (closing) expect(stack.pop(), `closing </${name}>`).toBe(name);
      else if (!selfClosing) stack.push(name);
      index += whole.length;
    } else {
      const end = svg.indexOf("<", index);
      const text = svg.slice(index, end === -1 ? svg.length : end);
      expect(text.replace(/&(#\d+|#x[\da-f]+|amp|lt|gt|quot|apos);/gi, "")).not.toContain("&");
      index = end === -1 ? svg.length : end;
    }
  }
  expect(stack).toEqual([]);
  for (const [, value] of svg.matchAll(/="([^"]*)"/g)) {
    expect(
      present(value, "the attribute pattern to capture the value").replace(
        /&(#\d+|#x[\da-f]+|amp|lt|gt|quot|apos);/gi,
        "",
      ),
    ).not.toMatch(/[&<]/);
  }
}

describe("coverSvg", () => {
  test("the cover is a 129x190 SVG", () => {
    const svg = coverSvg("Atomic Habits", "James Clear");
    expect(COVER_WIDTH).toBe(129);
    expect(COVER_HEIGHT).toBe(190);
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.endsWith("</svg>")).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toContain('width="129" height="190" viewBox="0 0 129 190"');
    expectWellFormed(svg);
  });

  test("it shows the title and the author and labels the image with both", () => {
    const svg = coverSvg("Atomic Habits", "James Clear");
    expect(svg).toContain(">Atomic</text>");
    expect(svg).toContain(">Habits</text>");
    expect(svg).toContain(">James Clear</text>");
    expect(svg).toContain('aria-label="Atomic Habits by James Clear"');
  });

  test("<, & and quotes in a title or author are escaped", () => {
    const svg = coverSvg('<script>alert("x")</script> & Co', `O'Brien & "Sons" <b>`);
    expect(svg).not.toContain("<script>");
    expect(svg).not.toContain("<b>");
    expect(svg).not.toContain('"x"');
    expect(svg).toContain("&lt;script&gt;");
    expect(svg).toContain("&amp; Co");
    expect(svg).toContain("&quot;Sons&quot;");
    expectWellFormed(svg);
  });

  test("the same title always gets the same cover and colour, whoever the author", () => {
    expect(coverSvg("Deep Work", "Cal Newport")).toBe(coverSvg("Deep Work", "Cal Newport"));
    const background = (svg: string) => /<rect width="129" height="190" fill="(#[0-9a-f]{6})"/.exec(svg)?.[1];
    const colour = background(coverSvg("Deep Work", "Cal Newport"));
    expect(colour).toMatch(/^#[0-9a-f]{6}$/);
    expect(background(coverSvg("Deep Work", "Someone Else"))).toBe(colour);
    const colours = new Set(
      ["Atomic Habits", "Deep Work", "Germinal", "Sapiens", "Zero to One", "The Road", "Be", "1984"].map((title) =>
        background(coverSvg(title, "A")),
      ),
    );
    expect(colours.size).toBeGreaterThan(1);
  });

  test("a very long title or author stays within five and two lines", () => {
    const svg = coverSvg("word ".repeat(60), "Anne Author ".repeat(10));
    expect(svg.match(/font-size="15"/g)).toHaveLength(5);
    expect(svg.match(/font-size="10"/g)).toHaveLength(2);
    expectWellFormed(svg);
  });

  test("coverPath is the generated cover's site path", () => {
    expect(coverPath("atomic-habits")).toBe("/covers/atomic-habits.svg");
  });
});

describe("wrapWords", () => {
  test("fills lines greedily up to the width", () => {
    expect(wrapWords("The Four Agreements", 12, 5)).toEqual(["The Four", "Agreements"]);
    expect(wrapWords("  a   b  ", 12, 5)).toEqual(["a b"]);
    expect(wrapWords("", 12, 5)).toEqual([]);
  });

  test("cuts a word longer than a line and marks the cut", () => {
    expect(wrapWords("Supercalifragilistic", 12, 5)).toEqual(["Supercalifr…"]);
  });

  test("ends the last kept line with an ellipsis when lines are dropped", () => {
    const lines = wrapWords("one two three four five six", 5, 2);
    expect(lines).toEqual(["one", "two…"]);
    for (const line of wrapWords("lorem ipsum dolor sit amet ".repeat(10), 12, 5)) {
      expect(line.length).toBeLessThanOrEqual(12);
    }
  });
});
