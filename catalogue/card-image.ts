/**
 * The social card of a page as an image: laid out by satori with the DejaVu fonts' real glyph
 * widths (text becomes outlines), drawn to PNG by resvg (catalogue/png.ts). Server and build only.
 */
import { readFileSync } from "node:fs";
import satori from "satori";
import { CARD_HEIGHT, CARD_WIDTH, type Card, initials, MONOGRAM } from "./card.ts";
import { FONT_FILES, svgToPng } from "./png.ts";

const COLOURS = { paper: "#fdfcf9", ink: "#1b1d21", muted: "#555b65", line: "#e2ded6", accent: "#1f4f8a" };

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
