/**
 * What the site derives from an item's Markdown body, once, from marked's tokens (never from the
 * rendered HTML): the HTML itself (sanitized), the plain text, its word count, a short excerpt, and the links
 * and images the body names. catalogue/load.ts adds these fields to every item; meta
 * descriptions, JSON-LD, the content check and the feeds read them.
 */
import { Marked, type Token, type Tokens } from "marked";
import { safeHtml } from "./safe-html.ts";
import { absoluteUrl } from "./site-url.ts";

export type DerivedBody = {
  /** The Markdown source of the body (the feeds render it again with absolute links). */
  markdown: string;
  /** The body rendered to HTML ("" when the file has no body). */
  html: string;
  /** The words of the body, markup left out; blocks are separated by a new line. */
  text: string;
  wordCount: number;
  /** The first words of the text, for a meta description ("" when the body is empty). */
  excerpt: string;
  /** Every link target of the body, as written ("/notes/x", "https://…"). */
  links: string[];
  /** Every image source of the body, as written. */
  images: string[];
};

/** How many words an excerpt keeps before its ellipsis. */
export const EXCERPT_WORDS = 30;

export const markdown = new Marked({ async: false });

/** Tokens to HTML, always through the sanitizer: the only way a body becomes HTML. */
export const renderHtml = (tokens: Token[] | Tokens.Generic[]): string => safeHtml(markdown.parser(tokens));

/** Tokens whose text starts a new line of the plain text. */
const BLOCKS = new Set(["paragraph", "heading", "list_item", "code", "blockquote", "hr", "space", "table"]);
/** Tokens whose own text is part of the plain text (the others hold it in child tokens, or are markup). */
const LEAVES = new Set(["text", "codespan", "code", "escape"]);

/** The text of tokens, depth first; an image's alt text is not part of the prose. */
export function plainText(tokens: readonly Token[]): string {
  let text = "";
  for (const token of tokens) {
    if (BLOCKS.has(token.type)) text += "\n";
    if (token.type === "image") continue;
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

const words = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));

/** The first `count` words of a text, with an ellipsis when some are left out. */
export function excerptOf(text: string, count = EXCERPT_WORDS): string {
  const all = text.split(/\s+/).filter(Boolean);
  return all.length <= count ? all.join(" ") : `${all.slice(0, count).join(" ")}…`;
}

export function deriveBody(source: string): DerivedBody {
  const tokens = markdown.lexer(source);
  const links: string[] = [];
  const images: string[] = [];
  markdown.walkTokens(tokens, (token) => {
    if (token.type === "link") links.push((token as Tokens.Link).href);
    if (token.type === "image") images.push((token as Tokens.Image).href);
  });
  const text = plainText(tokens)
    .replace(/[ \t]*\n\s*/g, "\n")
    .trim();
  return {
    markdown: source,
    html: source ? renderHtml(tokens) : "",
    text,
    wordCount: words(text).length,
    excerpt: excerptOf(text),
    links,
    images,
  };
}

const isRootRelative = (target: string) => target.startsWith("/") && !target.startsWith("//");

/**
 * The body rendered with its root-relative links and images made absolute, for a feed reader that
 * shows the HTML away from the site: "/notes/x" → "https://site/notes/x".
 */
export function renderWithAbsoluteLinks(source: string, siteUrl: string): string {
  if (!source) return "";
  const tokens = markdown.lexer(source);
  markdown.walkTokens(tokens, (token: Token) => {
    if ((token.type === "link" || token.type === "image") && isRootRelative(token.href)) {
      token.href = absoluteUrl(siteUrl, token.href);
    }
  });
  return renderHtml(tokens);
}
