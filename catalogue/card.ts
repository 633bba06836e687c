/**
 * The images a page shares on social sites (Open Graph, Twitter cards). A book note shares its
 * cover; every other page shares a generated 1200x630 card with its title, the owner's name and
 * the site. Both are PNG, which every social site shows (SVG is not). The cards are drawn by
 * catalogue/card-image.ts and served by the prerendered resource route app/routes/cards.$.ts; this
 * module says where each image lives and is light enough for the pages' own code.
 */
import { isGeneratedCover } from "./cover.ts";
import type { Catalogue } from "./load.ts";
import type { Note } from "./schema.ts";
import { SECTIONS } from "./sections.ts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** The generated cover, drawn at twice its size as a PNG: 258x380 (social sites want 144 px or more). */
export const COVER_IMAGE_SCALE = 2;

/** The colours of the owner's initials, on the cards and in the site's icon (catalogue/site-icon.ts). */
export const MONOGRAM = { background: "#1f3a5f", ink: "#f4f1ea" };

/** "Avery Quinn" → "AQ": the first letters of the first and the last word. */
export function initials(name: string): string {
  const [firstWord, ...otherWords] = name.split(/\s+/).filter(Boolean);
  if (firstWord === undefined) return "";
  const lastWord = otherWords.at(-1);
  const first = [...firstWord][0] ?? "";
  const last = lastWord === undefined ? "" : ([...lastWord][0] ?? "");
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
 * The title of every page that shares a generated card, by path: its og:title (app/lib/meta.ts),
 * the owner's name on the home page. A book note shares its cover instead.
 */
export function cardTitles(catalogue: Catalogue): Map<string, string> {
  const { site, pages, apps, work, writings } = catalogue;
  const titles = new Map<string, string>(SECTIONS.map((section) => [section.path, section.label] as [string, string]));
  titles.set("/", site.name);
  titles.set("/now", pages.now.title);
  titles.set("/about", pages.about.title);
  for (const item of [...apps, ...work, ...writings]) titles.set(item.path, item.name);
  for (const issue of catalogue.updates) titles.set(issue.path, issue.title);
  return titles;
}

/** The page of a card file: "cards/home.png" → "/"; the inverse of `cardPath`. */
export function pagePathOfCard(cardFile: string): string | undefined {
  const match = /^\/?cards\/(.+)\.png$/.exec(cardFile);
  if (!match) return undefined;
  return match[1] === "home" ? "/" : `/${match[1]}`;
}
