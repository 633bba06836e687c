import { useMemo } from "react";
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { formatMonthYear } from "../../catalogue/dates";
import { applyFilters, isNarrowed } from "../../catalogue/filters";
import { catalogue } from "../catalogue.server";
import { Breadcrumb } from "../components/Breadcrumb";
import { LinkIcons } from "../components/LinkIcons";
import { SearchBar } from "../components/SearchBar";
import { pageMeta } from "../lib/meta";
import { useListFilters } from "../lib/use-list-filters";
import type { Route } from "./+types/write";

export function loader() {
  const { noteApp, blog, name } = catalogue.site;
  return {
    writings: catalogue.writings.map(({ html: _essay, ...writing }) => writing),
    noteApp,
    blog,
    author: name,
  };
}

export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Write",
    description: "Short essays on habits, learning, attention, craft and building apps.",
  });

/** R9, FB6, WI1–WI4: the writings index, newest first, searchable. */
export default function Write({ loaderData: { writings, noteApp, blog, author } }: Route.ComponentProps) {
  const { filters, searchBox, deferredSearch, setSearch } = useListFilters();
  const visible = useMemo(
    () => applyFilters(writings, { search: deferredSearch, tag: "", sort: "date" }),
    [writings, deferredSearch],
  );
  return (
    <div className="page list-page">
      <Breadcrumb section={{ label: "Write" }} />
      <h1>Write</h1>
      <p className="lede">
        Short essays in four kinds: on habits and attention, on learning and reading, on craft and building apps, and on
        the quieter questions of fear, time and doubt.
      </p>
      <p>
        I wrote most of these first on{" "}
        <a href={noteApp.url} rel="noopener">
          {noteApp.name}
        </a>
        , a note-taking app, and now post my blogs on{" "}
        <a href={blog.url} rel="noopener">
          {blog.name}
        </a>
        .
      </p>
      <SearchBar
        action="/write"
        label="Search writings"
        query={filters.search}
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
                <Link to={writing.path} tabIndex={-1} aria-hidden="true">
                  <img src={writing.photo} alt="" width={100} height={100} loading="lazy" />
                </Link>
              )}
              <div>
                <h2 className="writing-title">
                  <Link to={writing.path}>{writing.name}</Link>
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
    </div>
  );
}
