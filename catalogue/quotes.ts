import type { Token, Tokens } from "marked";
import { lex, renderHtml, textOf } from "./derive.ts";
import { escapeXml } from "./xml.ts";

const ATTRIBUTION = /^— +(\S.*)$/s;

export const quotePath = (id: string) => `/quotes/${id}`;

function quoteOf(slug: string, number: number, inner: Token[], attribution: string) {
  const id = `${slug}-${number}`;
  const html = renderHtml(inner).trim();
  return { id, number, anchor: `quote-${number}`, path: quotePath(id), text: textOf(inner), html, attribution };
}

export type Quote = ReturnType<typeof quoteOf>;

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

export function deriveQuotes(source: string, slug: string): { html: string; quotes: Quote[]; reviewed: boolean } {
  const tokens = lex(source);
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
        const quote = quoteOf(slug, quotes.length + 1, (token as Tokens.Blockquote).tokens, attribution);
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
