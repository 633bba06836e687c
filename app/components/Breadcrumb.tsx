import { useMatches } from "react-router";
import { breadcrumbOf } from "../lib/page-handle.ts";
import { PageLink } from "./PageLink.tsx";

export function Breadcrumb() {
  const crumbs = breadcrumbOf(useMatches());
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={crumb.path}>
            {index < crumbs.length - 1 ? (
              <PageLink to={crumb.path}>{crumb.name}</PageLink>
            ) : (
              <span aria-current="page">{crumb.name}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
