import type { Filters } from "../../catalogue/filters";
import type { SortKey } from "../../catalogue/sort";
import { useModalDialog } from "../lib/modal";

const SORT_BUTTONS: ReadonlyArray<{ key: SortKey; label: string }> = [
  { key: "date", label: "Date" },
  { key: "title", label: "Title" },
  { key: "author", label: "Author" },
  { key: "rating", label: "Rating" },
  { key: "time", label: "Read Time" },
];

type FiltersOverlayProps = {
  filters: Filters;
  tags: readonly string[];
  onSort: (sort: SortKey) => void;
  onTag: (tag: string) => void;
};

/**
 * FB2–FB5: the filters button and its overlay, 'Order by:' and 'Filter by:'. Its buttons are
 * submit buttons of the list's GET form, so without JavaScript they reload the list filtered.
 */
export function FiltersOverlay({ filters, tags, onSort, onTag }: FiltersOverlayProps) {
  const overlay = useModalDialog("filters");
  return (
    <>
      <a {...overlay.openerProps} className="filters-button">
        <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24">
          <path d="M3 5h18l-7 8v6l-4 2v-8z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        </svg>
        Filters
      </a>
      <dialog {...overlay.dialogProps} className="filters-overlay" aria-labelledby="order-by">
        <a {...overlay.closerProps} className="close-button">
          <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24">
            <path d="M5 5l14 14M19 5L5 19" stroke="currentColor" strokeWidth="2" />
          </svg>
          Close
        </a>
        <h2 id="order-by">Order by:</h2>
        <div className="button-group">
          {SORT_BUTTONS.map((button) => (
            <button
              key={button.key}
              type="submit"
              name="sort"
              value={button.key}
              aria-pressed={filters.sort === button.key}
              onClick={(event) => {
                event.preventDefault();
                onSort(button.key);
                overlay.close();
              }}
            >
              {button.label}
            </button>
          ))}
        </div>
        <fieldset className="button-group">
          <legend>Filter by:</legend>
          <button
            type="submit"
            name="tag"
            value=""
            aria-pressed={filters.tag === ""}
            onClick={(event) => {
              event.preventDefault();
              onTag("");
            }}
          >
            All
          </button>
          {tags.map((tag) => {
            const selected = filters.tag === tag;
            return (
              <button
                key={tag}
                type="submit"
                name="tag"
                value={selected ? "" : tag}
                aria-pressed={selected}
                onClick={(event) => {
                  event.preventDefault();
                  onTag(selected ? "" : tag);
                }}
              >
                {tag}
              </button>
            );
          })}
        </fieldset>
      </dialog>
    </>
  );
}
