import { PageLink } from "./PageLink.tsx";

type QuotedBook = { path: string; name: string; author: string };

export const quotedBook = ({ path, name, author }: QuotedBook) => ({ path, name, author });

type ShownQuote = { html: string; attribution: string; note: QuotedBook };

export function QuoteFigure({ quote, share }: { quote: ShownQuote; share?: string }) {
  return (
    <figure className="quote">
      {/* The quote's HTML is rendered at build time from the owner's own note. */}
      <blockquote dangerouslySetInnerHTML={{ __html: quote.html }} />
      <figcaption>
        —{" "}
        <cite>
          <PageLink to={quote.note.path}>{quote.note.name}</PageLink>
        </cite>
        , {quote.note.author}, {quote.attribution}
        {share && (
          <>
            {" · "}
            <PageLink to={share} aria-label="Share this quote">
              Share
            </PageLink>
          </>
        )}
      </figcaption>
    </figure>
  );
}
