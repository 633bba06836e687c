import { formatMonthYear } from "../../catalogue/dates.ts";
import { SEARCH_KINDS, type SearchHit } from "../../catalogue/site-search.ts";

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
