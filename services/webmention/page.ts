// What a webmention reads in another site's page: whether it links to ours, who wrote it and what
// it says (its microformats), and where that site takes webmentions.

import { Parser } from "htmlparser2";
import LinkHeader from "http-link-header";
import { mf2 } from "microformats-parser";
import { orUndefined } from "../../catalogue/present.ts";
import { REPLY_LIMITS } from "../../rules/forms.ts";

const withoutFragment = (url: URL) => {
  url.hash = "";
  return url.href;
};

/** The links of a page, its title and its first link with rel webmention, read in one pass. */
function scan(html: string, pageUrl: string) {
  const hrefs = new Set<string>();
  let title = "";
  let inTitle = false;
  let webmention: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "title") inTitle = true;
        const href = attributes.href;
        if (href === undefined || !["a", "area", "link"].includes(name)) return;
        const url = URL.parse(href.trim(), pageUrl);
        if (!url) return;
        if (
          webmention === undefined &&
          name !== "area" &&
          (attributes.rel ?? "").toLowerCase().split(/\s+/).includes("webmention")
        ) {
          webmention = url.href;
        }
        hrefs.add(withoutFragment(url));
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return { hrefs, title: title.replace(/\s+/g, " ").trim(), webmention };
}

/** True when an href of the page, resolved against the page's address, is the target (fragments aside). */
export function linksTo(html: string, pageUrl: string, target: string): boolean {
  const wanted = URL.parse(target);
  return wanted !== null && scan(html, pageUrl).hrefs.has(withoutFragment(wanted));
}

export type Mention = { author: { name: string; url?: string }; text: string; writtenAt?: Date };

type Item = ReturnType<typeof mf2>["items"][number];
type MicroformatProperty = Item["properties"][string][number];
const isItem = (value: MicroformatProperty | undefined): value is Item =>
  typeof value === "object" && value !== null && "type" in value;

function firstEntry(items: Item[]): Item | undefined {
  for (const item of items) {
    if (item.type?.includes("h-entry")) return item;
    const inside = firstEntry(item.children ?? []);
    if (inside) return inside;
  }
  return undefined;
}

function textOf(value: MicroformatProperty | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return value;
  if ("value" in value && typeof value.value === "string") return value.value;
  return undefined;
}

const oneLine = (text: string) => text.replace(/[\s\p{Cc}]+/gu, " ").trim();

const clipped = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

const webUrl = (value: string | undefined, base: string) => {
  const url = value === undefined ? undefined : URL.parse(value, base);
  return url && (url.protocol === "http:" || url.protocol === "https:") && url.href.length <= REPLY_LIMITS.urlMaxLength
    ? url.href
    : undefined;
};

/**
 * The reply a page makes: its first h-entry's author (the h-card's name and url, else the page's host)
 * and words (its content as text, else its name or summary, else the page's title or address).
 */
export function mentionOf(html: string, pageUrl: string): Mention {
  // The parser throws on a body without an element: such a page has no h-entry either.
  const items = orUndefined(() => mf2(html, { baseUrl: pageUrl }).items) ?? [];
  const entry = firstEntry(items);
  const property = (name: string) => entry?.properties[name]?.[0];
  const author = property("author");
  const card = isItem(author) ? author : undefined;
  const name = oneLine((card ? textOf(card.properties.name?.[0]) : textOf(author)) ?? "") || new URL(pageUrl).host;
  const url = webUrl(card ? textOf(card.properties.url?.[0]) : undefined, pageUrl);
  const words =
    [property("content"), property("name"), property("summary")].map(textOf).find((text) => text?.trim()) ??
    (scan(html, pageUrl).title || pageUrl);
  const published = textOf(property("published"));
  const writtenAt = published === undefined ? undefined : new Date(published);
  return {
    author: { name: clipped(name, REPLY_LIMITS.nameMaxLength), ...(url && { url }) },
    text: clipped(words.trim(), REPLY_LIMITS.textMaxLength),
    ...(writtenAt && !Number.isNaN(writtenAt.getTime()) && { writtenAt }),
  };
}

/**
 * Where a page takes webmentions: the first Link header with rel webmention, else the first `<link>`
 * or `<a>` with it in the HTML, resolved against the page's address (an empty href is the page itself).
 */
export function endpointOf(linkHeader: string | null, html: string | undefined, pageUrl: string): string | undefined {
  if (linkHeader) {
    // A malformed header is passed over, as a page without one.
    const refs = orUndefined(() => LinkHeader.parse(linkHeader).refs) ?? [];
    const found = refs.find((ref) => (ref.rel ?? "").toLowerCase().split(/\s+/).includes("webmention"));
    const url = found && URL.parse(found.uri, pageUrl);
    if (url) return url.href;
  }
  return html === undefined ? undefined : scan(html, pageUrl).webmention;
}
