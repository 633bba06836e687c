import type { MetaDescriptor } from "react-router";
import { absoluteUrl } from "../../catalogue/site-url.ts";
import { CARD_HEIGHT, CARD_WIDTH, cardPath } from "../../outputs/card.ts";
import { breadcrumbLd, type JsonLd, personLd } from "../../outputs/structured-data.ts";
import { breadcrumbOf, canonicalPath, pageHandleOf } from "./page-handle.ts";
import { SITE_URL } from "./site-url.ts";

export const DEFAULT_TITLE = "Personal Website";

export type PageHead = {
  title?: string;
  description?: string;
  type?: "website" | "article" | "profile";
  image?: { path: string; alt: string; width?: number; height?: number };
  published?: string;
  person?: boolean;
  noindex?: boolean;
  structuredData?: JsonLd[];
};

export function documentTitle(owner: string, title: string | undefined): string {
  return `${owner} | ${title ?? DEFAULT_TITLE}`;
}

export type MetaMatch = { loaderData?: unknown; pathname?: string; handle?: unknown } | undefined;
type SiteData = {
  name: string;
  description: string;
  social: { name: string; url: string }[];
  sections: Partial<Record<string, { description?: string }>>;
};

export function siteOf(matches: ReadonlyArray<MetaMatch>): SiteData {
  const site = (matches[0]?.loaderData as { site?: Partial<SiteData> } | undefined)?.site;
  return { name: "", description: "", social: [], sections: {}, ...site };
}

const TWITTER_PROFILE = /^https?:\/\/(?:www\.)?(?:twitter|x)\.com\/@?([A-Za-z0-9_]+)\/?$/;

export function pageMeta(matches: ReadonlyArray<MetaMatch>, head: PageHead): MetaDescriptor[] {
  const site = siteOf(matches);
  const path = canonicalPath(matches.at(-1)?.pathname ?? "/");
  const url = absoluteUrl(SITE_URL, path);
  const title = head.title ?? site.name;
  const image = head.image ?? {
    path: cardPath(path),
    alt: title === site.name ? site.name : `${title}, ${site.name}`,
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
  };
  const imageUrl = absoluteUrl(SITE_URL, image.path);
  const section = pageHandleOf(matches)?.section;
  const description = head.description ?? (section && site.sections[section]?.description) ?? site.description;
  const handle = site.social.map((link) => TWITTER_PROFILE.exec(link.url)?.[1]).find(Boolean);
  const structuredData: JsonLd[] = [
    ...(head.person ? [personLd(site, SITE_URL)] : []),
    ...(path === "/" ? [] : [breadcrumbLd(breadcrumbOf(matches), SITE_URL)]),
    ...(head.structuredData ?? []),
  ];
  return [
    { title: documentTitle(site.name, head.title) },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.name },
    { property: "og:type", content: head.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
    ...(image.width && image.height
      ? [
          { property: "og:image:width", content: String(image.width) },
          { property: "og:image:height", content: String(image.height) },
        ]
      : []),
    { property: "og:image:alt", content: image.alt },
    ...(head.published ? [{ property: "article:published_time", content: head.published }] : []),
    // A generated card is wide; a book cover is portrait and would be cropped as a large image.
    { name: "twitter:card", content: head.image ? "summary" : "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: imageUrl },
    { name: "twitter:image:alt", content: image.alt },
    ...(handle ? [{ name: "twitter:creator", content: `@${handle}` }] : []),
    ...(head.noindex ? [{ name: "robots", content: "noindex" }] : []),
    ...structuredData.map((data) => ({ "script:ld+json": data })),
  ];
}
