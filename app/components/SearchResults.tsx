import { formatMonthYear } from "../../catalogue/dates.ts";
import { resultPages, SEARCH_KINDS, type SearchHit, type SearchPage } from "../../catalogue/site-search.ts";

// app/search/client.ts builds the same markup in the browser.
export function SearchResults({ hits }: { hits: readonly SearchHit[] }) {
  return (
    <ol className="search-results">
      {hits.map((hit) => (
        <li key={hit.path}>
          <a href={hit.path}>
            <span className="search-kind">{SEARCH_KINDS[hit.kind]}</span>
            <span className="search-title">{hit.title}</span>
            <time dateTime={hit.date}>{formatMonthYear(hit.date)}</time>
            {hit.snippet.length > 0 && (
              <span className="search-snippet">
                {hit.snippet.map((part, index) =>
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts are fixed text in a fixed order.
                  part.mark ? <mark key={index}>{part.text}</mark> : part.text,
                )}
              </span>
            )}
          </a>
        </li>
      ))}
    </ol>
  );
}

export function SearchPages({ query, result }: { query: string; result: SearchPage }) {
  const links = resultPages(query, result);
  if (links.length === 0) return null;
  return (
    <nav aria-label="Result pages" className="pager">
      {links.map(({ rel, label, href, text }) => (
        <a key={rel} href={href} rel={rel} className={`pager-${label.toLowerCase()}`}>
          <span className="pager-label">{label}</span> {text}
        </a>
      ))}
    </nav>
  );
}
