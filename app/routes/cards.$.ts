import { cardTitles, pagePathOfCard, quoteCards } from "../../outputs/card.ts";
import { cachedImage } from "../../outputs/image-cache.ts";
import { catalogue, notFound } from "../catalogue.server.ts";
import { SITE_URL } from "../lib/site-url.ts";
import type { Route } from "./+types/cards.$";

/** satori and resvg load on the first card drawn: a server, or a build whose cards are all in its cache, never loads them. */
const drawing = () => import("../../outputs/card-image.ts");

const site = new URL(SITE_URL).host;
/** Made once: the build asks for every card, and a card must not cost a pass over the catalogue. */
const quotes = quoteCards(catalogue, site);
const titles = cardTitles(catalogue);

export async function loader({ params }: Route.LoaderArgs) {
  const path = pagePathOfCard(`cards/${params["*"]}`) ?? notFound();
  const quote = quotes.get(path);
  const title = titles.get(path);
  const card = title && { title, owner: catalogue.site.name, site };
  const png = quote
    ? await cachedImage("quote-card", quote, async () => (await drawing()).quoteCardPng(quote))
    : card
      ? await cachedImage("card", card, async () => (await drawing()).cardPng(card))
      : notFound();
  return new Response(new Uint8Array(png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=3600" },
  });
}
