/** The social cards and cover images: the card laid out, its PNG, and where each page's image lives. */
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { describe, expect, test } from "vitest";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue } from "../../catalogue/load.ts";
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  cardPath,
  cardTitles,
  coverImagePath,
  drawsCoverImage,
  initials,
  noteImagePath,
} from "../../outputs/card.ts";
import { cardPng, cardSvg } from "../../outputs/card-image.ts";
import { coverSvg } from "../../outputs/cover.ts";
import { svgToPng } from "../../outputs/png.ts";
import { parseXml } from "./xml.ts";

const CARD = { title: "You Can Learn Anything", owner: "Avery Quinn", site: "averyquinn.example" };
const PAPER = [0xfd, 0xfc, 0xf9];

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer) {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Whether every pixel of a rectangle of the drawn card is the paper colour (nothing is drawn there). */
function blank(svg: string, box: { left: number; top: number; right: number; bottom: number }) {
  const image = new Resvg(svg).render();
  const { pixels, width } = image;
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      const at = (y * width + x) * 4;
      if (PAPER.some((value, channel) => pixels[at + channel] !== value)) return false;
    }
  }
  return true;
}

describe("cardSvg", () => {
  test("the card is a well-formed 1200x630 SVG whose text is drawn as glyph outlines of the bundled fonts", async () => {
    const svg = await cardSvg(CARD);
    const { svg: root } = parseXml(svg) as { svg: Record<string, string> };
    expect([root["@width"], root["@height"]]).toEqual(["1200", "630"]);
    // Outlines: the card looks the same wherever it is drawn, with no font lookup.
    expect(svg).not.toContain("<text");
  });

  test("long titles and names stay inside the margins, with the title on at most three lines above the rule", async () => {
    const titles = [
      "WWWWWWWWWW MMMMMMMMMM WWWWWWWWWW MMMMMMMMMM WWWWWWWWWW MMMMMMMMMM WWWWWW",
      "Supercalifragilisticexpialidociousnessesque-and-then-some-more-and-more-and-more-again",
      "The Surprising Power of Small Habits When Everything Else Fails You Again and Again and Again",
    ];
    for (const title of titles) {
      const svg = await cardSvg({
        title,
        owner: "Maximilian Alexander Worthington-Smythe III of the Very Long Name",
        site: "www.a-very-long-domain-name-for-a-site.example.com",
      });
      // The right margin is empty from top to bottom; so is the band between the title's third line and the rule.
      expect(blank(svg, { left: 1122, top: 0, right: CARD_WIDTH, bottom: CARD_HEIGHT }), title).toBe(true);
      expect(blank(svg, { left: 80, top: 445, right: 1120, bottom: 505 }), title).toBe(true);
    }
  });

  test("the title is drawn, so a card with a title differs from one without", async () => {
    const without = await cardSvg({ ...CARD, title: "" });
    expect(blank(without, { left: 80, top: 200, right: 1120, bottom: 440 })).toBe(true);
    expect(blank(await cardSvg(CARD), { left: 80, top: 200, right: 1120, bottom: 440 })).toBe(false);
  });

  test("initials are the first letters of the first and last names", () => {
    expect(initials("Avery Quinn")).toBe("AQ");
    expect(initials("cher")).toBe("C");
    expect(initials("Ana María de la Cruz")).toBe("AC");
    expect(initials("")).toBe("");
  });
});

describe("the PNG images", () => {
  test("a card renders to a 1200x630 PNG and a generated cover to a 258x380 one, offline", async () => {
    expect(pngSize(await cardPng(CARD))).toEqual({ width: CARD_WIDTH, height: CARD_HEIGHT });
    expect(pngSize(svgToPng(coverSvg("Atomic Habits", "James Clear"), 2))).toEqual({ width: 258, height: 380 });
  });
});

describe("where the images live", () => {
  test("cardPath maps each page path to one PNG", () => {
    expect(cardPath("/")).toBe("/cards/home.png");
    expect(cardPath("/notes")).toBe("/cards/notes.png");
    expect(cardPath("/notes/")).toBe("/cards/notes.png");
    expect(cardPath("/write/you-can-learn-anything")).toBe("/cards/write/you-can-learn-anything.png");
  });

  test("every page but a book note has a card titled as its og:title, and a note shares its cover", () => {
    const catalogue = buildCatalogue(readContentFiles(join(import.meta.dirname, "../fixtures")));
    const titles = cardTitles(catalogue);
    expect(titles.get("/")).toBe(catalogue.site.name);
    expect(titles.get("/stats")).toBe("Reading stats");
    expect(titles.get("/now")).toBe(catalogue.pages.now.title);
    for (const item of [...catalogue.apps, ...catalogue.work, ...catalogue.writings]) {
      expect(titles.get(item.path)).toBe(item.name);
    }
    for (const note of catalogue.notes) expect(titles.has(note.path)).toBe(false);
  });

  test("a note shares the PNG copy of its generated or SVG cover, or its own raster photo", () => {
    expect(noteImagePath({ slug: "deep-work", photo: "/covers/deep-work.svg" })).toBe("/covers/deep-work.png");
    expect(noteImagePath({ slug: "x", photo: "/images/notes/x.svg" })).toBe(coverImagePath("x"));
    expect(noteImagePath({ slug: "x", photo: "/images/notes/x.jpg" })).toBe("/images/notes/x.jpg");
    expect(noteImagePath({ slug: "x", photo: "https://img.example/x.svg" })).toBe("https://img.example/x.svg");
    expect(drawsCoverImage({ slug: "x", photo: "/images/notes/x.jpg" })).toBe(false);
  });
});
