// The DejaVu families name the fonts the build draws the PNG copy with; browsers use the others.
import { present } from "../catalogue/present.ts";
import { escapeXml } from "../catalogue/xml.ts";

const PALETTE = [
  { background: "#1f3a5f", ink: "#f4f1ea" },
  { background: "#7a2e2e", ink: "#fbeee0" },
  { background: "#2f5d50", ink: "#eef6f0" },
  { background: "#4b3869", ink: "#f1ecfa" },
  { background: "#8a5a14", ink: "#fff6e5" },
  { background: "#264653", ink: "#e9f5f2" },
  { background: "#5c3d2e", ink: "#f7ede2" },
  { background: "#3d405b", ink: "#f4f1de" },
];

export const COVER_WIDTH = 129;
export const COVER_HEIGHT = 190;

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return value;
}

export function wrapWords(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word.length > width ? `${word.slice(0, width - 1)}…` : word;
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines - 1);
  const lastKept = present(lines[maxLines - 1], "a line beyond the last one kept");
  return [...kept, `${lastKept.slice(0, width - 1)}…`];
}

/** `label` names the drawing for screen readers; an empty one hides it, beside a title that says the same. */
export function coverSvg(title: string, author: string, label = `${title} by ${author}`): string {
  const { background, ink } = present(PALETTE[hash(title) % PALETTE.length], "a palette entry at hash modulo length");
  const titleLines = wrapWords(title, 12, 5);
  const authorLines = wrapWords(author, 18, 2);
  const titleText = titleLines
    .map(
      (line, index) => `<text x="12" y="${42 + index * 19}" font-size="15" font-weight="700">${escapeXml(line)}</text>`,
    )
    .join("");
  const authorText = authorLines
    .map((line, index) => `<text x="12" y="${162 + index * 13}" font-size="10">${escapeXml(line)}</text>`)
    .join("");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}" viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}" ${label ? `role="img" aria-label="${escapeXml(label)}"` : 'aria-hidden="true"'}>`,
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="${background}"/>`,
    `<rect x="6" y="6" width="${COVER_WIDTH - 12}" height="${COVER_HEIGHT - 12}" fill="none" stroke="${ink}" stroke-opacity=".35"/>`,
    `<g fill="${ink}" font-stretch="condensed" font-family="Georgia, 'Times New Roman', DejaVu Serif, serif">${titleText}</g>`,
    `<line x1="12" x2="50" y1="146" y2="146" stroke="${ink}" stroke-opacity=".6"/>`,
    `<g fill="${ink}" font-family="system-ui, DejaVu Sans, sans-serif">${authorText}</g>`,
    "</svg>",
  ].join("");
}
