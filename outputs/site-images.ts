// The images the site draws: a card for each page and quote, and a cover for each book without one.
// The build writes every one of them as a file; the routes answer one at a time under `npm run dev`.
import { isGeneratedCover } from "../catalogue/cover-path.ts";
import type { Catalogue } from "../catalogue/load.ts";
import {
  type Card,
  COVER_IMAGE_SCALE,
  cardPath,
  cardTitles,
  coverImagePath,
  drawsCoverImage,
  type QuoteCard,
  quoteCards,
} from "./card.ts";
import { coverSvg } from "./cover.ts";
import { cachedImage } from "./image-cache.ts";

export type SiteImage =
  | { kind: "card"; card: Card }
  | { kind: "quote-card"; card: QuoteCard }
  | { kind: "cover"; title: string; author: string }
  | { kind: "cover-png"; title: string; author: string }
  | { kind: "photo-png"; photo: string };

/** Every drawn image by its path, from the few facts each needs: the catalogue is not kept. */
export function siteImages(catalogue: Catalogue, site: string): Map<string, SiteImage> {
  const images = new Map<string, SiteImage>();
  const owner = catalogue.site.name;
  for (const [path, title] of cardTitles(catalogue))
    images.set(cardPath(path), { kind: "card", card: { title, owner, site } });
  for (const [path, card] of quoteCards(catalogue, site)) images.set(cardPath(path), { kind: "quote-card", card });
  for (const note of catalogue.notes) {
    const { name: title, author } = note;
    if (isGeneratedCover(note)) images.set(note.photo, { kind: "cover", title, author });
    if (drawsCoverImage(note))
      images.set(
        coverImagePath(note.slug),
        isGeneratedCover(note) ? { kind: "cover-png", title, author } : { kind: "photo-png", photo: note.photo },
      );
  }
  return images;
}

export const imageType = (path: string) => (path.endsWith(".svg") ? "image/svg+xml" : "image/png");

/** satori and resvg load on the first image drawn: a build whose images are all in its cache never loads them. */
const drawing = () => import("./card-image.ts");
const png = () => import("./png.ts");

/** The image's file; `readPublicFile` reads an owner's SVG cover, which is drawn again as PNG. */
export async function drawImage(image: SiteImage, readPublicFile: (path: string) => Buffer): Promise<string | Buffer> {
  switch (image.kind) {
    case "card":
      return cachedImage("card", image.card, async () => (await drawing()).cardPng(image.card));
    case "quote-card":
      return cachedImage("quote-card", image.card, async () => (await drawing()).quoteCardPng(image.card));
    case "cover":
      return coverSvg(image.title, image.author);
    default: {
      const source =
        image.kind === "cover-png" ? coverSvg(image.title, image.author) : readPublicFile(image.photo).toString("utf8");
      const inputs = { source, scale: COVER_IMAGE_SCALE };
      return cachedImage("cover", inputs, async () => (await png()).svgToPng(source, COVER_IMAGE_SCALE));
    }
  }
}
