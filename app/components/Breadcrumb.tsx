import { Link } from "react-router";

export type Crumb = { label: string; to?: string };

/** SH3: Home / section / item; every part but the last is a link. */
export function Breadcrumb({ section, item }: { section: Crumb; item?: string }) {
  const parts: Crumb[] = [{ label: "Home", to: "/" }, item ? section : { label: section.label }];
  if (item) parts.push({ label: item });
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        {parts.map((part, index) => (
          <li key={part.label}>
            {index < parts.length - 1 && part.to ? (
              <Link to={part.to}>{part.label}</Link>
            ) : (
              <span aria-current="page">{part.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
