/** The social cards and cover images (issue 7): the SVG drawn, its PNG, and where each page's image lives. */
import { describe, expect, test } from "vitest";
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  cardPath,
  cardSvg,
  coverImagePath,
  drawsCoverImage,
  fitLines,
  initials,
  noteImagePath,
  readOpenGraph,
  textWidth,
} from "../../catalogue/card";
import { coverSvg } from "../../catalogue/cover";
import { renderedBox, svgToPng } from "../../catalogue/png";
import { parseXml } from "./xml";

const CARD = { title: "You Can Learn Anything", owner: "Avery Quinn", site: "averyquinn.example" };

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer) {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);

describe("cardSvg", () => {
  test("OG the card is a well-formed 1200x630 SVG with the title, the owner, the site and the monogram", () => {
    const svg = cardSvg(CARD);
    const { svg: root } = parseXml(svg) as { svg: Record<string, string> };
    expect([root["@width"], root["@height"], root["@viewBox"]]).toEqual(["1200", "630", "0 0 1200 630"]);
    expect(texts(svg)).toEqual(["AQ", "You Can Learn Anything", "Avery Quinn", "averyquinn.example"]);
  });

  test("OG the home page's card (title = owner) shows the name once", () => {
    expect(texts(cardSvg({ ...CARD, title: "Avery Quinn" }))).toEqual(["AQ", "Avery Quinn", "averyquinn.example"]);
  });

  test("OG markup in a title or name is escaped", () => {
    const svg = cardSvg({ title: `<b>"Tom" & Jerry's</b>`, owner: "A & <B>", site: "x" });
    expect(svg).not.toContain("<b>");
    parseXml(svg);
    expect(svg).toContain("&#60;b&#62;&#34;Tom&#34; &#38; Jerry&#39;s&#60;/b&#62;");
  });

  test("OG a long title is wrapped to at most three lines that stay inside the card, as rendered", () => {
    const titles = [
      "WWWWWWWWWW MMMMMMMMMM WWWWWWWWWW MMMMMMMMMM WWWWWWWWWW MMMMMMMMMM WWWWWW",
      "Supercalifragilisticexpialidociousnessesque-and-then-some-more",
      "The Surprising Power of Small Habits When Everything Else Fails You Again and Again",
    ];
    for (const title of titles) {
      const svg = cardSvg({
        title,
        owner: "Maximilian Alexander Worthington-Smythe III",
        site: "www.a-very-long-domain-name.example.com",
      });
      const lines = texts(svg).slice(1, -2);
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(lines.length).toBeLessThanOrEqual(3);
      // Rendered with the build's fonts: the title stays within the margins, and the owner and the site do not meet.
      const part = (pattern: RegExp) => {
        const found = pattern.exec(svg)?.[0] ?? "";
        const box = renderedBox(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">${found}</svg>`);
        if (!box) throw new Error(`nothing drawn for ${pattern}`);
        return box;
      };
      const titleBox = part(/<g font-family[^>]*>.*?<\/g>/);
      expect(titleBox.left).toBeGreaterThanOrEqual(76);
      expect(titleBox.right).toBeLessThanOrEqual(CARD_WIDTH - 80);
      expect(titleBox.top).toBeGreaterThan(152);
      expect(titleBox.bottom).toBeLessThan(500);
      const ownerBox = part(/<text x="80" y="562"[^>]*>[^<]*<\/text>/);
      const siteBox = part(/<text x="1120"[^>]*>[^<]*<\/text>/);
      expect(ownerBox.right).toBeLessThan(siteBox.left);
      expect(siteBox.right).toBeLessThanOrEqual(CARD_WIDTH - 78);
    }
  });

  test("OG fitLines fills lines up to the width and marks every cut with an ellipsis", () => {
    expect(fitLines("a b c", 1000, 10, 3)).toEqual(["a b c"]);
    const lines = fitLines("word ".repeat(100), 300, 30, 3);
    expect(lines).toHaveLength(3);
    expect(lines[2].endsWith("…")).toBe(true);
    for (const line of lines) expect(textWidth(line, 30)).toBeLessThanOrEqual(300);
    expect(fitLines("x".repeat(200), 300, 30, 2)).toEqual([expect.stringMatching(/^x+…$/)]);
  });

  test("OG initials are the first letters of the first and last names", () => {
    expect(initials("Avery Quinn")).toBe("AQ");
    expect(initials("cher")).toBe("C");
    expect(initials("Ana María de la Cruz")).toBe("AC");
    expect(initials("")).toBe("");
  });
});

describe("the PNG images", () => {
  test("OG a card renders to a 1200x630 PNG and a generated cover to a 258x380 one, offline", () => {
    expect(pngSize(svgToPng(cardSvg(CARD)))).toEqual({ width: CARD_WIDTH, height: CARD_HEIGHT });
    expect(pngSize(svgToPng(coverSvg("Atomic Habits", "James Clear"), 2))).toEqual({ width: 258, height: 380 });
  });

  test("OG the text is drawn with the bundled fonts, not left out", () => {
    const blank = svgToPng(cardSvg({ title: "", owner: "", site: "" }));
    const titled = svgToPng(cardSvg({ title: "A title with words", owner: "", site: "" }));
    expect(titled.length).toBeGreaterThan(blank.length + 500);
  });
});

describe("where the images live", () => {
  test("OG cardPath: one PNG per page path", () => {
    expect(cardPath("/")).toBe("/cards/home.png");
    expect(cardPath("/notes")).toBe("/cards/notes.png");
    expect(cardPath("/notes/")).toBe("/cards/notes.png");
    expect(cardPath("/write/you-can-learn-anything")).toBe("/cards/write/you-can-learn-anything.png");
  });

  test("OG a note shares the PNG copy of its generated or SVG cover, or its own raster photo", () => {
    expect(noteImagePath({ slug: "deep-work", photo: "/covers/deep-work.svg" })).toBe("/covers/deep-work.png");
    expect(noteImagePath({ slug: "x", photo: "/images/notes/x.svg" })).toBe(coverImagePath("x"));
    expect(noteImagePath({ slug: "x", photo: "/images/notes/x.jpg" })).toBe("/images/notes/x.jpg");
    expect(noteImagePath({ slug: "x", photo: "https://img.example/x.svg" })).toBe("https://img.example/x.svg");
    expect(drawsCoverImage({ slug: "x", photo: "/images/notes/x.jpg" })).toBe(false);
  });

  test("OG readOpenGraph reads a page's og: properties, entities decoded, the first of each", () => {
    const html = `<head><meta property="og:title" content="Tom &amp; Jerry&#x27;s &quot;Q&quot; &lt;3"/><meta name="description" content="d"/>
      <meta content="https://s/cards/a.png" property="og:image"><meta property="og:title" content="second"/></head>`;
    expect(readOpenGraph(html)).toEqual({ "og:title": `Tom & Jerry's "Q" <3`, "og:image": "https://s/cards/a.png" });
  });
});
