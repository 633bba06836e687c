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
  return {
    writings: catalogue.writings.map((writing) => ({ ...withoutBody(writing), excerpt: writing.excerpt })),
    author: catalogue.site.name,
  };
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
        <ul className="writing-list essay-list h-feed">
          {visible.map((writing) => (
            <li key={writing.slug} className="writing-entry h-entry">
              {/* Every row has its square, so the titles line up whether or not an essay has a photo. */}
              {writing.photo ? (
                <PageLink to={writing.path} tabIndex={-1} aria-hidden="true" className="writing-thumb">
                  <img src={writing.photo} alt="" width={100} height={100} loading="lazy" />
                </PageLink>
              ) : (
                <span className="writing-thumb" aria-hidden="true">
                  {writing.name.charAt(0)}
                </span>
              )}
              <div>
                <h2 className="writing-title">
                  <PageLink to={writing.path} className="p-name u-url">
                    {writing.name}
                  </PageLink>
                </h2>
                <p className="meta-line">
                  <time className="dt-published" dateTime={writing.date}>
                    {formatMonthYear(writing.date)}
                  </time>
                  {writing.time > 0 && ` · ${writing.time} min read`}
                  {/* Every essay is the owner's: said for machines and screen readers, not shown on each row. */}
                  <span className="visually-hidden"> · by {author}</span>
                </p>
              </div>
              {writing.excerpt && <p className="writing-excerpt p-summary">{writing.excerpt}</p>}
              <LinkIcons item={writing} labelled />
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
