// Cards and covers are PNG: social sites show no SVG.

import { isGeneratedCover } from "../catalogue/cover-path.ts";
import type { Catalogue } from "../catalogue/load.ts";
import { bookYears } from "../catalogue/reading-life.ts";
import type { Note } from "../catalogue/schema.ts";
import { SECTIONS } from "../catalogue/sections.ts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

// Social sites want covers of 144 px or more.
export const COVER_IMAGE_SCALE = 2;

export const MONOGRAM = { background: "#1f3a5f", ink: "#f4f1ea" };

export function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  const firstAndLast = words.length > 1 ? [words[0], words.at(-1)] : words;
  const letters = firstAndLast.map((word = "") => [...word][0]);
  return letters.join("").toUpperCase();
}

export function cardPath(pathname: string): string {
  const path = pathname.replace(/\/+$/, "");
  return `/cards${path === "" ? "/home" : path}.png`;
}

export function drawsCoverImage(note: Pick<Note, "slug" | "photo">): boolean {
  return isGeneratedCover(note) || /^\/[^/].*\.svg$/i.test(note.photo);
}

export function noteImagePath(note: Pick<Note, "slug" | "photo">): string {
  return drawsCoverImage(note) ? coverImagePath(note.slug) : note.photo;
}

export const coverImagePath = (slug: string) => `/covers/${slug}.png`;

export type Card = { title: string; owner: string; site: string };

export function cardTitles(catalogue: Catalogue): Map<string, string> {
  const { site, pages, apps, work, writings } = catalogue;
  const titles = new Map<string, string>(SECTIONS.map((section) => [section.path, section.label] as [string, string]));
  titles.set("/", site.name);
  titles.set("/now", pages.now.title);
  titles.set("/about", pages.about.title);
  for (const item of [...apps, ...work, ...writings]) titles.set(item.path, item.name);
  for (const issue of catalogue.updates) titles.set(issue.path, issue.title);
  for (const year of bookYears(catalogue.notes)) titles.set(`/stats/${year}`, yearTitle(year));
  return titles;
}

export const yearTitle = (year: string) => `${year} in books`;

export type QuoteCard = { text: string; book: string; author: string; attribution: string; site: string };

export function quoteCards(catalogue: Catalogue, site: string): Map<string, QuoteCard> {
  return new Map(
    catalogue.quotes.map((quote) => [
      quote.path,
      { text: quote.text, book: quote.note.name, author: quote.note.author, attribution: quote.attribution, site },
    ]),
  );
}

export const CARD_QUOTE_LIMIT = 280;

export function cardQuoteText(text: string, limit = CARD_QUOTE_LIMIT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= limit) return flat;
  const cut = flat.slice(0, limit - 1);
  const atWord = cut.slice(0, Math.max(cut.lastIndexOf(" "), Math.floor(limit / 2)));
  return `${atWord.replace(/[\s,;:.—–-]+$/, "")}…`;
}
