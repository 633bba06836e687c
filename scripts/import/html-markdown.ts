// The site shows no image from another host, so a remote image becomes a link the report lists for the owner.
import TurndownService from "turndown";
import { SPOILER } from "../../catalogue/derive.ts";
import { isSafeUrl } from "../../catalogue/safe-html.ts";

function textWithBreaks(node: Node): string {
  if (node.nodeName === "BR") return "\n";
  if (node.nodeType === 3) return node.textContent ?? "";
  return Array.from(node.childNodes, textWithBreaks).join("");
}

const DROPPED = new Set(["script", "style", "noscript", "iframe", "object", "embed", "template", "svg", "math"]);

/** Longer than any run of backticks in the code, which could otherwise close it early. */
const fenceFor = (code: string) =>
  "`".repeat(Math.max(3, ...Array.from(code.matchAll(/`+/g), ([run]) => run.length + 1)));

function converter(images: string[]): TurndownService {
  const service = new TurndownService({
    headingStyle: "atx",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
    emDelimiter: "*",
    strongDelimiter: "**",
    hr: "---",
  });
  service.remove((node) => DROPPED.has(node.nodeName.toLowerCase()));
  // Turndown leaves < and & as they are: "&lt;script&gt;" in a review would become a tag.
  const escapeMarkdown = service.escape.bind(service);
  service.escape = (text) =>
    escapeMarkdown(text)
      .replace(/</g, "\\<")
      .replace(/&(?=#?\w+;)/g, "\\&");
  service.addRule("unsafeLink", {
    filter: (node) => node.nodeName === "A" && !isSafeUrl(node.getAttribute("href") ?? "", "link"),
    replacement: (content) => content,
  });
  service.addRule("mediumFurniture", {
    filter: (node) => /\b(?:graf--title|section-divider)\b/.test((node as HTMLElement).className ?? ""),
    replacement: () => "",
  });
  // A block of its own, as the site's Markdown reads spoilers (content/README.md).
  service.addRule("spoiler", {
    filter: (node) => node.nodeName === "SPOILER",
    replacement: (content) => (content.trim() ? `\n\n[spoiler]\n${content.trim()}\n[/spoiler]\n\n` : ""),
  });
  service.addRule("remoteImage", {
    filter: "img",
    replacement: (_content, node) => {
      const image = node as HTMLImageElement;
      const source = image.getAttribute("src") ?? "";
      if (!source || !isSafeUrl(source, "image")) return "";
      images.push(source);
      const alt = service.escape((image.getAttribute("alt") ?? "").trim().replace(/[[\]]/g, ""));
      const destination = source.replace(/\s/g, encodeURIComponent).replace(/[<>()\\]/g, "\\$&");
      return `[Image${alt ? `: ${alt}` : ""}](${destination})`;
    },
  });
  // Medium's code blocks are <pre> with <br> for new lines and no <code> inside.
  service.addRule("preWithoutCode", {
    filter: (node) => node.nodeName === "PRE" && node.firstChild?.nodeName !== "CODE",
    replacement: (_content, node) => {
      const code = textWithBreaks(node).replace(/\n$/, "");
      const fence = fenceFor(code);
      return `\n\n${fence}\n${code}\n${fence}\n\n`;
    },
  });
  // One space after a list marker, as the owner writes lists (turndown puts three).
  service.addRule("listItem", {
    filter: "li",
    replacement: (content, node) => {
      const parent = node.parentNode as HTMLElement;
      const start = Number(parent.getAttribute("start") ?? 1);
      const prefix =
        parent.nodeName === "OL" ? `${start + Array.prototype.indexOf.call(parent.children, node)}. ` : "- ";
      const body = content
        .replace(/^\n+/, "")
        .replace(/\n+$/, "\n")
        .replace(/\n(?!$)/g, `\n${" ".repeat(prefix.length)}`);
      return `${prefix}${body.replace(/\n$/, "")}${node.nextSibling ? "\n" : ""}`;
    },
  });
  return service;
}

export function htmlToMarkdown(html: string) {
  const images: string[] = [];
  const markdown = converter(images)
    .turndown(html)
    .replace(/^[ \t]+$/gm, "")
    .replace(/[ \t]+$/gm, (spaces) => (spaces.length >= 2 ? "  " : ""))
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { markdown, images };
}

const paragraphsOf = (html: string) =>
  html
    .split(/(?:\s*<br\s*\/?>\s*){2,}/i)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${paragraph}</p>`)
    .join("");

/** Goodreads writes a blank line as two <br/>; plain text (StoryGraph) reads the same way. A spoiler may sit inside a paragraph. */
export function reviewToMarkdown(review: string) {
  const html = review
    .replace(/\r\n?/g, "\n")
    .replace(/\n/g, "<br/>")
    .replace(/<(\/?)spoiler>/gi, "[$1spoiler]")
    .split(SPOILER)
    // split puts each spoiler's words at the odd places.
    .map((part, index) => (index % 2 === 1 ? `<spoiler>${paragraphsOf(part)}</spoiler>` : paragraphsOf(part)))
    .join("");
  return htmlToMarkdown(html);
}
