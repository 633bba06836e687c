import { Link, useMatches } from "react-router";
import { breadcrumbOf } from "../lib/page-handle.ts";

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
