import { cachedBuildOutput } from "../../catalogue/build-cache.ts";
import { timeSpent } from "../../catalogue/build-timing.ts";
import { cardTitles, pagePathOfCard, quoteCards } from "../../catalogue/card.ts";
import { cardPng, quoteCardPng } from "../../catalogue/card-image.ts";
import { catalogue, notFound } from "../catalogue.server.ts";
import { SITE_URL } from "../lib/site-url.ts";
import type { Route } from "./+types/cards.$";

/** /cards/<page>.png: the social card of a page, drawn from the catalogue and prerendered at build time. */
export async function loader({ params }: Route.LoaderArgs) {
  const path = pagePathOfCard(`cards/${params["*"]}`) ?? notFound();
  const site = new URL(SITE_URL).host;
  const quote = quoteCards(catalogue, site).get(path);
  const title = cardTitles(catalogue).get(path);
  const card = title && { title, owner: catalogue.site.name, site };
  const png = quote
    ? await timeSpent("cards", () => cachedBuildOutput("quote-card", quote, () => quoteCardPng(quote)))
    : card
      ? await timeSpent("cards", () => cachedBuildOutput("card", card, () => cardPng(card)))
      : notFound();
  return new Response(new Uint8Array(png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=3600" },
  });
}
