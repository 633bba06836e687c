import { Link, useMatches } from "react-router";
import { breadcrumbOf } from "../lib/page-handle.ts";

/** The breadcrumb of inner pages: Home / section / item, from the page route's `handle`; every part but the last is a link. */
export function Breadcrumb() {
  const crumbs = breadcrumbOf(useMatches());
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={crumb.path}>
            {index < crumbs.length - 1 ? (
              <Link to={crumb.path} prefetch="intent">
                {crumb.name}
              </Link>
            ) : (
              <span aria-current="page">{crumb.name}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
