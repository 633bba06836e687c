/**
 * The images a page shares on social sites (Open Graph, Twitter cards). A book note shares its
 * cover; every other page shares a generated 1200x630 card with its title, the owner's name and
 * the site. Both are PNG, which every social site shows (SVG is not). The cards are laid out by
 * satori with the DejaVu fonts' real glyph widths, drawn by resvg (catalogue/png.ts), and served by
 * the prerendered resource route app/routes/card.ts.
 */

import { readFileSync } from "node:fs";
import satori from "satori";
import { isGeneratedCover } from "./cover";
import type { Catalogue } from "./load";
import { FONT_FILES, svgToPng } from "./png";
import type { Note } from "./schema";
import { SECTIONS } from "./sections";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** The generated cover, drawn at twice its size as a PNG: 258x380 (social sites want 144 px or more). */
export const COVER_IMAGE_SCALE = 2;

const COLOURS = { paper: "#fdfcf9", ink: "#1b1d21", muted: "#555b65", line: "#e2ded6", accent: "#1f4f8a" };
const MONOGRAM = { background: "#1f3a5f", ink: "#f4f1ea" };

/** "Avery Quinn" → "AQ": the first letters of the first and the last word. */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  if (words.length === 0) return "";
  const first = [...words[0]][0] ?? "";
  const last = words.length > 1 ? ([...words[words.length - 1]][0] ?? "") : "";
  return (first + last).toUpperCase();
}

/** Where the card of a page lives: "/" → "/cards/home.png", "/write/x" → "/cards/write/x.png". */
export function cardPath(pathname: string): string {
  const path = pathname.replace(/\/+$/, "");
  return `/cards${path === "" ? "/home" : path}.png`;
}

/**
 * Whether the build draws the PNG copy of a note's cover: for a generated cover, or a photo that
 * is an SVG file under public/ (social sites show no SVG).
 */
export function drawsCoverImage(note: Pick<Note, "slug" | "photo">): boolean {
  return isGeneratedCover(note) || /^\/[^/].*\.svg$/i.test(note.photo);
}

/** The image a note shares: its cover, as the PNG copy the build draws or as the photo itself. */
export function noteImagePath(note: Pick<Note, "slug" | "photo">): string {
  return drawsCoverImage(note) ? coverImagePath(note.slug) : note.photo;
}

/** The PNG copy of a note's cover, drawn by the build (and the development server). */
export const coverImagePath = (slug: string) => `/covers/${slug}.png`;

export type Card = {
  /** The page's title; the home page passes the owner's name. */
  title: string;
  owner: string;
  /** The site as people read it: "averyquinn.com". */
  site: string;
};

/**
 * The title of every page that shares a generated card, by path: its og:title (app/lib/meta.ts),
 * the owner's name on the home page. A book note shares its cover instead.
 */
export function cardTitles(catalogue: Catalogue): Map<string, string> {
  const { site, pages, apps, work, writings } = catalogue;
  const titles = new Map<string, string>(SECTIONS.map((section) => [section.path, section.label] as [string, string]));
  titles.set("/", site.name);
  titles.set("/now", pages.now.title);
  titles.set("/about", pages.about.title);
  for (const item of [...apps, ...work, ...writings]) titles.set(item.path, item.name);
  return titles;
}

/** The page of a card file: "cards/home.png" → "/"; the inverse of `cardPath`. */
export function pagePathOfCard(cardFile: string): string | undefined {
  const match = /^\/?cards\/(.+)\.png$/.exec(cardFile);
  if (!match) return undefined;
  return match[1] === "home" ? "/" : `/${match[1]}`;
}

/** Where the card's text may go: from x=80 to x=1120. */
const TEXT_WIDTH = 1040;

/** A satori node: the element tree satori lays out, written without JSX. */
type Node = { type: string; props: { style?: Record<string, unknown>; children?: (Node | string)[] | Node | string } };

const node = (style: Record<string, unknown>, children: Node["props"]["children"]): Node => ({
  type: "div",
  props: { style: { display: "flex", ...style }, children },
});

const FONTS = [
  { name: "DejaVu Serif", file: "DejaVuSerif-Bold.ttf", weight: 700 },
  { name: "DejaVu Sans", file: "DejaVuSans.ttf", weight: 400 },
  { name: "DejaVu Sans", file: "DejaVuSans-Bold.ttf", weight: 700 },
] as const;

let fonts: { name: string; data: Buffer; weight: 400 | 700; style: "normal" }[] | undefined;
function cardFonts() {
  fonts ??= FONTS.map(({ name, file, weight }) => ({
    name,
    data: readFileSync(FONT_FILES[file]),
    weight,
    style: "normal" as const,
  }));
  return fonts;
}

/**
 * The card as SVG, text laid out by satori with the fonts' own metrics: the owner's monogram, the
 * title (up to three lines, cut with an ellipsis) and, below a rule, the owner and the site.
 */
export async function cardSvg({ title, owner, site }: Card): Promise<string> {
  const showOwner = owner.trim() !== "" && owner !== title;
  const oneLine = { whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" };
  const tree = node(
    { width: CARD_WIDTH, height: CARD_HEIGHT, backgroundColor: COLOURS.paper, fontFamily: "DejaVu Sans" },
    [
      node({ width: 24, height: CARD_HEIGHT, flexShrink: 0, backgroundColor: COLOURS.accent }, []),
      node({ flexDirection: "column", width: CARD_WIDTH - 24, padding: "64px 80px 48px 56px" }, [
        node(
          {
            width: 88,
            height: 88,
            borderRadius: 18,
            backgroundColor: MONOGRAM.background,
            color: MONOGRAM.ink,
            fontFamily: "DejaVu Serif",
            fontWeight: 700,
            fontSize: 40,
            alignItems: "center",
            justifyContent: "center",
          },
          initials(owner),
        ),
        node({ flexGrow: 1, alignItems: "center" }, [
          {
            type: "div",
            props: {
              style: {
                display: "block",
                fontFamily: "DejaVu Serif",
                fontWeight: 700,
                fontSize: title.length > 60 ? 60 : 72,
                lineHeight: 1.2,
                width: TEXT_WIDTH,
                color: COLOURS.ink,
                lineClamp: 3,
                overflowWrap: "anywhere",
              },
              children: title,
            },
          },
        ]),
        node(
          {
            width: TEXT_WIDTH,
            borderTop: `2px solid ${COLOURS.line}`,
            paddingTop: 28,
            justifyContent: "space-between",
            alignItems: "baseline",
            gap: 40,
          },
          [
            node(
              { fontSize: 34, fontWeight: 700, color: COLOURS.ink, flexShrink: 1, minWidth: 0, ...oneLine },
              showOwner ? owner : "",
            ),
            node({ fontSize: 28, color: COLOURS.muted, flexShrink: 0, maxWidth: 460, ...oneLine }, site),
          ],
        ),
      ]),
    ],
  );
  // satori takes React elements; this plain tree is the shape it reads.
  return satori(tree as unknown as Parameters<typeof satori>[0], {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: cardFonts(),
  });
}

export async function cardPng(card: Card): Promise<Buffer> {
  return svgToPng(await cardSvg(card));
}
