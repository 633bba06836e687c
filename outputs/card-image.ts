import { readFileSync } from "node:fs";
import satori from "satori";
import { CARD_HEIGHT, CARD_WIDTH, type Card, cardQuoteText, initials, MONOGRAM, type QuoteCard } from "./card.ts";
import { FONT_FILES, svgToPng } from "./png.ts";

const COLOURS = { paper: "#fdfcf9", ink: "#1b1d21", muted: "#555b65", line: "#e2ded6", accent: "#1f4f8a" };

const TEXT_WIDTH = 1040;

type Style = Record<string, unknown>;

type Node = { type: string; props: { style?: Style; children?: (Node | string)[] | Node | string } };

const node = (style: Style, children: Node["props"]["children"]): Node => ({
  type: "div",
  props: { style: { display: "flex", ...style }, children },
});

const FONTS = [
  { name: "DejaVu Serif", file: "DejaVuSerif-Bold.ttf", weight: 700 },
  { name: "DejaVu Sans", file: "DejaVuSans.ttf", weight: 400 },
  { name: "DejaVu Sans", file: "DejaVuSans-Bold.ttf", weight: 700 },
] as const;

const SERIF_BOLD = { fontFamily: "DejaVu Serif", fontWeight: 700 };

const ONE_LINE = { whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" };

const frame = (parts: Node[]): Node =>
  node({ width: CARD_WIDTH, height: CARD_HEIGHT, backgroundColor: COLOURS.paper, fontFamily: "DejaVu Sans" }, [
    node({ width: 24, height: CARD_HEIGHT, flexShrink: 0, backgroundColor: COLOURS.accent }, []),
    node({ flexDirection: "column", width: CARD_WIDTH - 24, padding: "64px 80px 48px 56px" }, parts),
  ]);

const headline = (words: string, style: Style): Node =>
  node(
    { display: "block", ...SERIF_BOLD, width: TEXT_WIDTH, color: COLOURS.ink, overflowWrap: "anywhere", ...style },
    words,
  );

type FooterSizes = { ownLine: number; site: number; siteWidth: number };

function footer(ownLine: string, site: string, sizes: FooterSizes, style: Style = {}): Node {
  return node(
    {
      width: TEXT_WIDTH,
      ...style,
      borderTop: `2px solid ${COLOURS.line}`,
      paddingTop: 28,
      justifyContent: "space-between",
      alignItems: "baseline",
      gap: 40,
    },
    [
      node(
        { fontSize: sizes.ownLine, fontWeight: 700, color: COLOURS.ink, flexShrink: 1, minWidth: 0, ...ONE_LINE },
        ownLine,
      ),
      node({ fontSize: sizes.site, color: COLOURS.muted, flexShrink: 0, maxWidth: sizes.siteWidth, ...ONE_LINE }, site),
    ],
  );
}

let fonts: { name: string; data: Buffer; weight: 400 | 700; style: "normal" }[] | undefined;

function drawCard(tree: Node): Promise<string> {
  fonts ??= FONTS.map(({ name, file, weight }) => ({
    name,
    data: readFileSync(FONT_FILES[file]),
    weight,
    style: "normal",
  }));
  // satori takes React elements; this plain tree is the shape it reads.
  return satori(tree as unknown as Parameters<typeof satori>[0], { width: CARD_WIDTH, height: CARD_HEIGHT, fonts });
}

export async function cardSvg({ title, owner, site }: Card): Promise<string> {
  const showOwner = owner.trim() !== "" && owner !== title;
  return drawCard(
    frame([
      node(
        {
          width: 88,
          height: 88,
          borderRadius: 18,
          backgroundColor: MONOGRAM.background,
          color: MONOGRAM.ink,
          ...SERIF_BOLD,
          fontSize: 40,
          alignItems: "center",
          justifyContent: "center",
        },
        initials(owner),
      ),
      node({ flexGrow: 1, alignItems: "center" }, [
        headline(title, { fontSize: title.length > 60 ? 60 : 72, lineHeight: 1.2, lineClamp: 3 }),
      ]),
      footer(showOwner ? owner : "", site, { ownLine: 34, site: 28, siteWidth: 460 }),
    ]),
  );
}

export async function cardPng(card: Card): Promise<Buffer> {
  return svgToPng(await cardSvg(card));
}

const QUOTE_BOX_HEIGHT = 380;

export async function quoteCardPng({ text, book, author, attribution, site }: QuoteCard): Promise<Buffer> {
  const words = cardQuoteText(text);
  const fontSize = words.length <= 90 ? 56 : words.length <= 160 ? 46 : words.length <= 220 ? 40 : 34;
  const lineHeight = 1.3;
  const lines = Math.max(1, Math.floor(QUOTE_BOX_HEIGHT / (fontSize * lineHeight)));
  const svg = await drawCard(
    frame([
      node({ height: QUOTE_BOX_HEIGHT + 32, alignItems: "center", overflow: "hidden" }, [
        headline(`“${words}”`, {
          fontSize,
          lineHeight,
          maxHeight: QUOTE_BOX_HEIGHT,
          lineClamp: lines,
          overflow: "hidden",
        }),
      ]),
      footer(
        `— ${book}, ${author}, ${attribution}`,
        site,
        { ownLine: 30, site: 26, siteWidth: 360 },
        { marginTop: "auto" },
      ),
    ]),
  );
  return svgToPng(svg);
}
