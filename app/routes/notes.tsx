import { useMemo } from "react";
import { applyFilters, canonicalListQuery, isNarrowed } from "../../catalogue/filters.ts";
import { catalogue, noteSummary } from "../catalogue.server.ts";
import { FiltersOverlay } from "../components/FiltersOverlay.tsx";
import { NoteList } from "../components/NoteList.tsx";
import { Page, SectionIntro } from "../components/Page.tsx";
import { PageLink } from "../components/PageLink.tsx";
import { choiceProps, SearchBar } from "../components/SearchBar.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pack, unpack } from "../lib/packed.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { listShouldRevalidate, useListFilters } from "../lib/use-list-filters.ts";
import type { Route } from "./+types/notes";

export const handle = pageHandle("notes", { hydrate: true, query: canonicalListQuery });

export function loader() {
  return { notes: pack(catalogue.listedNotes.map(noteSummary)), tags: catalogue.tags };
}

export const shouldRevalidate = listShouldRevalidate;

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Notes" });

export default function Notes({ loaderData }: Route.ComponentProps) {
  const { tags } = loaderData;
  const notes = useMemo(() => unpack(loaderData.notes), [loaderData.notes]);
  const { filters, searchBox, setSearch, setSort, setTag } = useListFilters();
  const { search, sort, tag } = filters;
  const visible = useMemo(() => applyFilters(notes, { sort, tag, search }), [notes, sort, tag, search]);
  return (
    <Page className="page list-page">
      <div className="heading-row">
        <h1>Notes</h1>
        <PageLink to="/stats" className="heading-link">
          Reading stats
        </PageLink>
      </div>
      <SectionIntro section="notes" />
      <SearchBar action="/notes" label="Search notes" filters={filters} searchBox={searchBox} onQueryChange={setSearch}>
        <FiltersOverlay filters={filters} tags={tags} onSort={setSort} onTag={setTag} />
        {filters.tag && (
          <button
            {...choiceProps({ tag: "" })}
            className="chip-button"
            onClick={(event) => {
              event.preventDefault();
              setTag("");
            }}
          >
            {filters.tag}
            <svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" />
            </svg>
            <span className="visually-hidden">Remove the tag filter</span>
          </button>
        )}
      </SearchBar>
      {/* data-query says which search the list on screen shows (the benchmark waits for it). */}
      <div data-query={search}>
        <p className="results" aria-live="polite">
          {isNarrowed(filters) ? `Results (${visible.length})` : ""}
        </p>
        {visible.length > 0 ? (
          <NoteList notes={visible} sort={sort} listKey={`${search}\n${tag}\n${sort}`} />
        ) : (
          <>
            <p className="empty">No notes</p>
            {search.trim() && (
              // A document request, so the server answers from its cache of searches.
              <p>
                <a href={`/search?${new URLSearchParams({ q: search.trim() })}`}>
                  Search everything for “{search.trim()}”
                </a>
              </p>
            )}
          </>
        )}
      </div>
    </Page>
  );
}
