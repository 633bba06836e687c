import type { Filters } from "../../catalogue/filters.ts";
import type { SortKey } from "../../catalogue/sort.ts";
import { CloseButton, closeDialogAround, dialogProps, openerProps } from "./Dialog.tsx";
import { choiceProps } from "./SearchBar.tsx";

const SORT_LABELS: Record<SortKey, string> = {
  date: "Date",
  title: "Title",
  author: "Author",
  rating: "Rating",
  time: "Read Time",
  releaseDate: "Release Date",
};

// A release-date order is reachable by URL only.
const SORT_BUTTONS: readonly SortKey[] = ["date", "title", "author", "rating", "time"];

type FiltersOverlayProps = {
  filters: Filters;
  tags: readonly string[];
  onSort: (sort: SortKey) => void;
  onTag: (tag: string) => void;
};

// The choices are submit buttons of GET forms, so they work without JavaScript.
export function FiltersOverlay({ filters, tags, onSort, onTag }: FiltersOverlayProps) {
  return (
    <>
      <button {...openerProps("filters")} className="filters-button">
        <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24">
          <path d="M3 5h18l-7 8v6l-4 2v-8z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        </svg>
        Filters
      </button>
      <span className="current-sort">Sorted by {SORT_LABELS[filters.sort]}</span>
      <dialog {...dialogProps("filters")} className="filters-overlay" aria-labelledby="order-by">
        <CloseButton dialog="filters" />
        <h2 id="order-by">Order by:</h2>
        <div className="button-group">
          {SORT_BUTTONS.map((key) => (
            <button
              key={key}
              {...choiceProps({ sort: key })}
              aria-pressed={filters.sort === key}
              onClick={(event) => {
                event.preventDefault();
                onSort(key);
                closeDialogAround(event.currentTarget);
              }}
            >
              {SORT_LABELS[key]}
            </button>
          ))}
        </div>
        <fieldset className="button-group">
          <legend>Filter by:</legend>
          {["", ...tags].map((tag) => {
            const selected = filters.tag === tag;
            return (
              <button
                key={tag}
                {...choiceProps({ tag: selected ? "" : tag })}
                aria-pressed={selected}
                onClick={(event) => {
                  event.preventDefault();
                  onTag(selected ? "" : tag);
                }}
              >
                {tag || "All"}
              </button>
            );
          })}
        </fieldset>
      </dialog>
    </>
  );
}
