/**
 * The images a page shares on social sites (Open Graph, Twitter cards). A book note shares its
 * cover; every other page shares a generated 1200x630 card with its title, the owner's name and
 * the site. Both are PNG, which every social site shows (SVG is not): scripts/finish-build.ts
 * renders them at build time from the SVG drawn here (catalogue/png.ts).
 */
import { isGeneratedCover } from "./cover";
import type { Note } from "./schema";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** The generated cover, drawn at twice its size as a PNG: 258x380 (social sites want 144 px or more). */
export const COVER_IMAGE_SCALE = 2;

/** Font families of the cards; the build renders them with the DejaVu fonts (dejavu-fonts-ttf). */
const SERIF = "DejaVu Serif, Georgia, serif";
const SANS = "DejaVu Sans, system-ui, sans-serif";

const COLOURS = { paper: "#fdfcf9", ink: "#1b1d21", muted: "#555b65", line: "#e2ded6", accent: "#1f4f8a" };
const MONOGRAM = { background: "#1f3a5f", ink: "#f4f1ea" };

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.codePointAt(0)};`);
}

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
 * The advance width of DejaVu Serif Bold in em, by kind of character (measured with resvg); a
 * little generous, so a line that fits here fits in the image. DejaVu Sans is about as wide.
 */
function glyphWidth(char: string): number {
  if (char === " ") return 0.34;
  if (".,:;'!|".includes(char)) return 0.34;
  if ("iljtfr()[]".includes(char)) return 0.43;
  if ("IJL".includes(char)) return 0.54;
  if ("mw".includes(char)) return 0.96;
  if ("MW@%".includes(char)) return 1.1;
  if (/[a-z]/.test(char)) return 0.65;
  if (/[0-9]/.test(char)) return 0.7;
  if (/[A-Z]/.test(char)) return 0.82;
  return /\p{L}/u.test(char) ? 0.82 : 0.9;
}

/** The estimated width in pixels of a line of text at a font size. */
export function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const char of text) em += glyphWidth(char);
  return em * fontSize;
}

/**
 * Greedy word wrap to a width in pixels, at most `maxLines` lines; a word too long for a line is
 * cut, and so is the last line when words are left over, each cut marked with an ellipsis.
 */
export function fitLines(text: string, maxWidth: number, fontSize: number, maxLines: number): string[] {
  const fits = (line: string) => textWidth(line, fontSize) <= maxWidth;
  const cut = (line: string) => {
    let kept = [...line];
    while (kept.length > 0 && !fits(`${kept.join("").trimEnd()}…`)) kept = kept.slice(0, -1);
    return `${kept.join("").trimEnd()}…`;
  };
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = fits(word) ? word : cut(word);
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = cut(`${kept[maxLines - 1]} ${lines[maxLines]}`);
  return kept;
}

/** Where the card's text may go: from x=80 to x=1120. */
const TEXT_WIDTH = 1040;

/** A 1200x630 SVG: the owner's monogram, the title (up to three lines) and, below a rule, owner and site. */
export function cardSvg({ title, owner, site }: Card): string {
  const fontSize = textWidth(title, 72) <= 2 * TEXT_WIDTH ? 72 : 60;
  const lineHeight = Math.round(fontSize * 1.2);
  const lines = fitLines(title, TEXT_WIDTH, fontSize, 3);
  const top = 300 - ((lines.length - 1) * lineHeight) / 2;
  const titleText = lines
    .map((line, index) => `<text x="80" y="${top + index * lineHeight}">${escapeXml(line)}</text>`)
    .join("");
  const showOwner = owner.trim() !== "" && owner !== title;
  // The owner on the left and the site on the right share the bottom line without meeting.
  const siteLine = fitLines(site, 460, 28, 1)[0] ?? "";
  const ownerLine = fitLines(owner, TEXT_WIDTH - 40 - textWidth(siteLine, 28), 34, 1)[0] ?? "";
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" role="img" aria-label="${escapeXml(showOwner ? `${title}, ${owner}` : title)}">`,
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${COLOURS.paper}"/>`,
    `<rect width="24" height="${CARD_HEIGHT}" fill="${COLOURS.accent}"/>`,
    `<rect x="80" y="64" width="88" height="88" rx="18" fill="${MONOGRAM.background}"/>`,
    `<text x="124" y="123" text-anchor="middle" font-family="${SERIF}" font-size="40" font-weight="700" fill="${MONOGRAM.ink}">${escapeXml(initials(owner))}</text>`,
    `<g font-family="${SERIF}" font-size="${fontSize}" font-weight="700" fill="${COLOURS.ink}">${titleText}</g>`,
    `<line x1="80" x2="1120" y1="500" y2="500" stroke="${COLOURS.line}" stroke-width="2"/>`,
    showOwner
      ? `<text x="80" y="562" font-family="${SANS}" font-size="34" font-weight="700" fill="${COLOURS.ink}">${escapeXml(ownerLine)}</text>`
      : "",
    `<text x="1120" y="562" text-anchor="end" font-family="${SANS}" font-size="28" fill="${COLOURS.muted}">${escapeXml(siteLine)}</text>`,
    "</svg>",
  ].join("");
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity[0] !== "#") return ENTITIES[entity.toLowerCase()];
    const code =
      entity[1] === "x" || entity[1] === "X" ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    return String.fromCodePoint(code);
  });
}

/**
 * The Open Graph properties a page's HTML declares, `{ "og:title": "…", "og:image": "…" }` (the
 * first of each), so that the build draws a page's card from the title the page itself shows.
 */
export function readOpenGraph(html: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<meta\s(?:[^>"']|"[^"]*"|'[^']*')*>/gi)) {
    const attributes = new Map(
      [...tag.matchAll(/([\w:-]+)=(?:"([^"]*)"|'([^']*)')/g)].map(([, name, double, single]) => [
        name.toLowerCase(),
        decodeEntities(double ?? single ?? ""),
      ]),
    );
    const property = attributes.get("property");
    const content = attributes.get("content");
    if (property && content !== undefined && !(property in found)) found[property] = content;
  }
  return found;
}
