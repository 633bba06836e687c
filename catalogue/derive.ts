import { Marked, type Token, type Tokens } from "marked";
import { safeHtml } from "./safe-html.ts";
import { absoluteUrl } from "./site-url.ts";

export const EXCERPT_WORDS = 30;

// Goodreads' marks, which an owner types too; spoilers do not nest, so a mark never closed costs
// one scan to the next mark.
export const SPOILER = /\[spoiler\]((?:(?!\[\/?spoiler\])[\s\S])*)\[\/spoiler\]/i;
const SPOILER_BLOCK = new RegExp(`^${SPOILER.source}[^\\S\\n]*\\n?`, "i");
const SPOILER_HIDDEN = "(spoiler hidden)";

const SPOILERS = new RegExp(SPOILER, "gi");

export const hideSpoilers = (source: string) => source.replace(SPOILERS, SPOILER_HIDDEN);

/** Markdown whose spoiler blocks become what `show` makes of their HTML. */
export const markdownWith = (show: (html: string) => string) =>
  new Marked({
    async: false,
    extensions: [
      {
        name: "spoiler",
        level: "block",
        tokenizer(source) {
          const [raw, inner = ""] = SPOILER_BLOCK.exec(source) ?? [];
          return raw === undefined
            ? undefined
            : { type: "spoiler", raw, tokens: this.lexer.blockTokens(inner.trim(), []) };
        },
        renderer(token) {
          return show(this.parser.parse(token.tokens ?? []));
        },
      },
    ],
  });

export const markdown = markdownWith((html) => `<details><summary>Spoiler</summary>\n${html}</details>\n`);
// A feed reader or a mail client may show a <details> open.
const spoilersHidden = markdownWith(() => `<p><em>${SPOILER_HIDDEN}</em></p>\n`);

/** A spoiler inside a paragraph, as Goodreads writes one, is set apart as a block of its own. */
export const lex = (source: string, parser: Marked = markdown) => parser.lexer(source.replace(SPOILERS, "\n\n$&\n\n"));

// The only way a body becomes HTML: always through the sanitizer.
export const renderHtml = (tokens: Token[] | Tokens.Generic[]): string => safeHtml(markdown.parser(tokens));

const BLOCKS = new Set(["paragraph", "heading", "list_item", "code", "blockquote", "hr", "space", "table"]);
const LEAVES = new Set(["text", "codespan", "code", "escape"]);

export function plainText(tokens: readonly Token[]): string {
  let text = "";
  for (const token of tokens) {
    if (BLOCKS.has(token.type)) text += "\n";
    // A spoiler stays out of every excerpt, description and search.
    if (token.type === "image" || token.type === "spoiler") continue;
    if (token.type === "list") text += plainText((token as Tokens.List).items);
    else if (token.type === "table") {
      const table = token as Tokens.Table;
      for (const row of [table.header, ...table.rows])
        text += `\n${row.map((cell) => plainText(cell.tokens)).join(" ")}`;
    } else if ("tokens" in token && token.tokens) text += plainText(token.tokens);
    else if (LEAVES.has(token.type)) text += (token as { text: string }).text;
  }
  return text;
}

/** The plain text of Markdown tokens, one line a block. */
export const textOf = (tokens: readonly Token[]) =>
  plainText(tokens)
    .replace(/[ \t]*\n\s*/g, "\n")
    .trim();

export const wordCount = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

export function excerptOf(text: string, count = EXCERPT_WORDS): string {
  const all = text.split(/\s+/).filter(Boolean);
  return all.length <= count ? all.join(" ") : `${all.slice(0, count).join(" ")}…`;
}

export type DerivedBody = ReturnType<typeof deriveBody>;

export function deriveBody(source: string) {
  const tokens = lex(source);
  const links: string[] = [];
  const images: string[] = [];
  markdown.walkTokens(tokens, (token) => {
    if (token.type === "link") links.push((token as Tokens.Link).href);
    if (token.type === "image") images.push((token as Tokens.Image).href);
  });
  const text = textOf(tokens);
  return {
    markdown: source,
    html: source ? renderHtml(tokens) : "",
    text,
    wordCount: wordCount(text),
    excerpt: excerptOf(text),
    links,
    images,
  };
}

const isRootRelative = (target: string) => target.startsWith("/") && !target.startsWith("//");

export function renderWithAbsoluteLinks(source: string, siteUrl: string, parser = spoilersHidden): string {
  if (!source) return "";
  const tokens = lex(source, parser);
  parser.walkTokens(tokens, (token: Token) => {
    if ((token.type === "link" || token.type === "image") && isRootRelative(token.href)) {
      token.href = absoluteUrl(siteUrl, token.href);
    }
  });
  return safeHtml(parser.parser(tokens));
}
