// Whatever could run script is removed; content/README.md lists what passes.

import { DomUtils, parseDocument } from "htmlparser2";
import sanitizeHtml from "sanitize-html";

const LINK_SCHEMES = ["http", "https", "mailto"];
const IMAGE_SCHEMES = ["http", "https"];

// Read as a browser reads it: blanks and control characters left out.
export function isSafeUrl(url: string, kind: "link" | "image"): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers skip these inside a scheme.
  const scheme = /^([a-z][a-z0-9.+-]*):/i.exec(url.replace(/[\x00-\x20]+/g, ""))?.[1]?.toLowerCase();
  return scheme === undefined || (kind === "link" ? LINK_SCHEMES : IMAGE_SCHEMES).includes(scheme);
}

const QUOTE_ANCHOR = /^quote-\d+$/;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...["p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "ul", "ol", "li"],
    ...["dl", "dt", "dd", "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td"],
    ...["a", "img", "em", "strong", "b", "i", "s", "del", "ins", "code", "kbd", "samp", "var", "q", "cite"],
    ...["sup", "sub", "abbr", "mark", "small", "details", "summary", "figure", "figcaption"],
  ],
  allowedAttributes: {
    a: ["href", "title"],
    img: ["src", "alt", "title", "width", "height"],
    abbr: ["title"],
    ol: ["start", "reversed"],
    th: ["align", "colspan", "rowspan"],
    td: ["align", "colspan", "rowspan"],
    details: ["open"],
    code: ["class"],
    figure: ["id", "class"],
  },
  allowedClasses: { code: ["language-*"], figure: ["quote"] },
  allowedSchemes: LINK_SCHEMES,
  // No data: image either.
  allowedSchemesByTag: { img: IMAGE_SCHEMES },
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  transformTags: {
    figure: (tagName, { id, ...others }) => ({
      tagName,
      attribs: id !== undefined && QUOTE_ANCHOR.test(id) ? { id, ...others } : others,
    }),
  },
  disallowedTagsMode: "discard",
  // Removed with everything in them; any other tag not allowed leaves its text.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "template", "iframe", "object", "svg", "math"],
};

export function safeHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

const REPLY_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "a"],
  allowedAttributes: { a: ["href", "rel"] },
  allowedSchemes: ["http", "https"],
  allowedSchemesAppliedToAttributes: ["href"],
  // A reader's link earns no ranking from us.
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "nofollow ugc" }) },
  disallowedTagsMode: "discard",
  nonTextTags: OPTIONS.nonTextTags,
};

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const WEB_ADDRESS = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)]/g;

/** A reader's plain text as HTML: paragraphs, line breaks and web addresses as links, nothing else. */
export function replyHtml(text: string): string {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => {
      const linked = escapeHtml(paragraph).replace(WEB_ADDRESS, (url) => `<a href="${url}">${url}</a>`);
      return `<p>${linked.replace(/\n/g, "<br>")}</p>`;
    });
  return sanitizeHtml(paragraphs.join(""), REPLY_OPTIONS);
}

/** An outside post's HTML (a fediverse reply) as the plain text a reply is stored as, its paragraphs kept. */
export function textOfHtml(html: string): string {
  const broken = html.replace(/<\/p>\s*/gi, "\n\n").replace(/<br\s*\/?>/gi, "\n");
  return DomUtils.textContent(parseDocument(broken)).trim();
}
