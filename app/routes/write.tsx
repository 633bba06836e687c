import { useMemo } from "react";
import { formatMonthYear } from "../../catalogue/dates.ts";
import { applyFilters, canonicalListQuery, isNarrowed } from "../../catalogue/filters.ts";
import { catalogue, withoutBody } from "../catalogue.server.ts";
import { LinkIcons } from "../components/LinkIcons.tsx";
import { Page } from "../components/Page.tsx";
import { PageLink } from "../components/PageLink.tsx";
import { SearchBar } from "../components/SearchBar.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { listShouldRevalidate, useListFilters } from "../lib/use-list-filters.ts";
import type { Route } from "./+types/write";

export const handle = pageHandle("write", { hydrate: true, query: canonicalListQuery });

export function loader() {
  return { writings: catalogue.writings.map(withoutBody), author: catalogue.site.name };
}

export const shouldRevalidate = listShouldRevalidate;

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Write" });

export default function Write({ loaderData: { writings, author } }: Route.ComponentProps) {
  const { filters, searchBox, setSearch } = useListFilters();
  const visible = useMemo(
    () => applyFilters(writings, { search: filters.search, tag: "", sort: "date" }),
    [writings, filters.search],
  );
  return (
    <Page className="page list-page" title="Write" intro="write">
      <SearchBar
        action="/write"
        label="Search writings"
        filters={filters}
        searchBox={searchBox}
        onQueryChange={setSearch}
      />
      <p className="results" aria-live="polite">
        {isNarrowed(filters) ? `Results (${visible.length})` : ""}
      </p>
      {visible.length === 0 ? (
        <p className="empty">No writings match your search.</p>
      ) : (
        <ul className="writing-list">
          {visible.map((writing) => (
            <li key={writing.slug} className="writing-entry">
              {writing.photo && (
                <PageLink to={writing.path} tabIndex={-1} aria-hidden="true">
                  <img src={writing.photo} alt="" width={100} height={100} loading="lazy" />
                </PageLink>
              )}
              <div>
                <h2 className="writing-title">
                  <PageLink to={writing.path}>{writing.name}</PageLink>
                </h2>
                <p className="meta-line">
                  <time dateTime={writing.date}>{formatMonthYear(writing.date)}</time> · {author}
                </p>
                <LinkIcons item={writing} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
