import { Link } from "react-router";
import { filtersToQuery } from "../../catalogue/filters.ts";
import { DEFAULT_SORT } from "../../catalogue/sort.ts";

export function Tags({ tags }: { tags: readonly string[] }) {
  return (
    <ul className="chips" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={`/notes${filtersToQuery({ search: "", sort: DEFAULT_SORT, tag })}`} prefetch="intent">
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
