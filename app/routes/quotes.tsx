import { FEEDS } from "../../outputs/linked-files.ts";
import { catalogue } from "../catalogue.server.ts";
import { Page } from "../components/Page.tsx";
import { QuoteFigure, quotedBook } from "../components/QuoteFigure.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/quotes";

export const handle = pageHandle("quotes");

export function loader() {
  const quotes = catalogue.quotes.map(({ id, path, html, attribution, note }) => {
    return { id, path, html, attribution, note: quotedBook(note) };
  });
  return { quotes };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Quotes" });

export default function Quotes({ loaderData: { quotes } }: Route.ComponentProps) {
  return (
    <Page className="page quotes-page" title="Quotes">
      <p className="meta-line">
        {quotes.length} quotes · <a href={FEEDS.quotes.path}>{FEEDS.quotes.title} feed</a>
      </p>
      <ul className="quote-list">
        {quotes.map((quote) => (
          <li key={quote.id}>
            <QuoteFigure quote={quote} share={quote.path} />
          </li>
        ))}
      </ul>
    </Page>
  );
}
