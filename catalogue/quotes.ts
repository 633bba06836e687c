/**
 * Quotes in a note's body (content/README.md): a Markdown blockquote followed by a paragraph that
 * starts with an em dash and a space, the attribution ("— p. 42"). Found once, from marked's
 * tokens, when the catalogue is built: the note's page shows each quote as a figure with a stable
 * anchor, and /quotes, the quote pages, their cards and the quotes feed read the list.
 */
import type { Token, Tokens } from "marked";
import { markdown, plainText, renderHtml } from "./derive.ts";
import { escapeXml } from "./xml.ts";

/** The line that names where a quote is: "— p. 42". */
const ATTRIBUTION = /^— +(\S.*)$/s;

export type Quote = {
  /** The note's slug and the quote's number in the note: "walden-2". */
  id: string;
  /** 1 for the note's first quote. */
  number: number;
  /** The quote's anchor on the note's page: "quote-2". */
  anchor: string;
  /** /quotes/walden-2 */
  path: string;
  /** The quote as plain text, paragraphs separated by a new line. */
  text: string;
  /** The quote as HTML (its paragraphs, without the blockquote). */
  html: string;
  /** Where the quote is in the book, as written after the dash: "p. 42". */
  attribution: string;
};

export const quotePath = (id: string) => `/quotes/${id}`;

/** The attribution a paragraph gives, or null when it is none. */
function attributionOf(token: Token | undefined): string | null {
  if (token?.type !== "paragraph") return null;
  const match = ATTRIBUTION.exec((token as Tokens.Paragraph).text.trim());
  return match?.[1]?.trim() ?? null;
}

function quoteFigure(quote: Quote): string {
  return [
    `<figure id="${quote.anchor}" class="quote">`,
    `<blockquote>${quote.html}</blockquote>`,
    `<figcaption>— ${escapeXml(quote.attribution)} · <a href="${quote.path}">Share this quote</a></figcaption>`,
    "</figure>\n",
  ].join("");
}

/**
 * The quotes of a note's body, and the body's HTML with each quote as a figure that has its anchor
 * and a link to its page. `reviewed` says whether the body holds anything besides its quotes.
 */
export function deriveQuotes(source: string, slug: string): { html: string; quotes: Quote[]; reviewed: boolean } {
  const tokens = markdown.lexer(source);
  const quotes: Quote[] = [];
  const kept: Token[] = [];
  let reviewed = false;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    if (token.type === "blockquote") {
      let next = index + 1;
      while (tokens[next]?.type === "space") next++;
      const attribution = attributionOf(tokens[next]);
      if (attribution !== null) {
        const inner = (token as Tokens.Blockquote).tokens;
        const number = quotes.length + 1;
        const id = `${slug}-${number}`;
        const quote: Quote = {
          id,
          number,
          anchor: `quote-${number}`,
          path: quotePath(id),
          text: plainText(inner)
            .replace(/[ \t]*\n\s*/g, "\n")
            .trim(),
          html: renderHtml(inner).trim(),
          attribution,
        };
        quotes.push(quote);
        const html = quoteFigure(quote);
        kept.push({ type: "html", block: true, pre: false, raw: html, text: html } as Tokens.HTML);
        index = next;
        continue;
      }
    }
    if (token.type !== "space") reviewed = true;
    kept.push(token);
  }
  if (quotes.length === 0) return { html: source ? renderHtml(tokens) : "", quotes, reviewed };
  return { html: renderHtml(Object.assign(kept, { links: tokens.links })), quotes, reviewed };
}
