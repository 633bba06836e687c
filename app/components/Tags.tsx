import { DEFAULT_FILTERS, filtersToQuery } from "../../catalogue/filters.ts";
import { PageLink } from "./PageLink.tsx";

export function Tags({ tags }: { tags: readonly string[] }) {
  return (
    <ul className="chips" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <PageLink to={`/notes${filtersToQuery({ ...DEFAULT_FILTERS, tag })}`}>{tag}</PageLink>
        </li>
      ))}
    </ul>
  );
}
