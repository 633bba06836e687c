import { quotationLd } from "../../outputs/structured-data.ts";
import { catalogue, notFound } from "../catalogue.server.ts";
import { Page } from "../components/Page.tsx";
import { PageLink } from "../components/PageLink.tsx";
import { QuoteFigure, quotedBook } from "../components/QuoteFigure.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { SITE_URL } from "../lib/site-url.ts";
import type { Route } from "./+types/quotes.$id";

export const handle = pageHandle("quotes", {
  item: (data: Route.ComponentProps["loaderData"]) => `${data.quote.note.name}, ${data.quote.attribution}`,
});

export function loader({ params }: Route.LoaderArgs) {
  const quote = catalogue.quotes.find((candidate) => candidate.id === params.id) ?? notFound();
  const { id, path, text, html, attribution, anchor, note } = quote;
  return { quote: { id, path, text, html, attribution, anchor, note: quotedBook(note) } };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { quote } = loaderData;
  return pageMeta(matches, {
    title: `${quote.note.name}, ${quote.attribution}`,
    description: quote.text,
    type: "article",
    structuredData: [quotationLd(quote, SITE_URL)],
  });
};

export default function QuotePage({ loaderData: { quote } }: Route.ComponentProps) {
  return (
    <Page className="page quote-page" as="article">
      <h1 className="visually-hidden">
        {quote.note.name}, {quote.attribution}
      </h1>
      <QuoteFigure quote={quote} />
      <p className="meta-line">
        <PageLink to={`${quote.note.path}#${quote.anchor}`}>In my note on {quote.note.name}</PageLink> ·{" "}
        <PageLink to="/quotes">All quotes</PageLink>
      </p>
    </Page>
  );
}
