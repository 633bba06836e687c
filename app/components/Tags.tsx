import { filtersToQuery } from "../../catalogue/filters.ts";
import { DEFAULT_SORT } from "../../catalogue/sort.ts";
import { PageLink } from "./PageLink.tsx";

export function Tags({ tags }: { tags: readonly string[] }) {
  return (
    <ul className="chips" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <PageLink to={`/notes${filtersToQuery({ search: "", sort: DEFAULT_SORT, tag })}`}>{tag}</PageLink>
        </li>
      ))}
    </ul>
  );
}
