import type { ReactNode, RefObject } from "react";
import { Form } from "react-router";
import { type Filters, filterFields } from "../../catalogue/filters.ts";

type SearchBarProps = {
  action: string;
  filters: Filters;
  // Uncontrolled, so no render ever writes over a key the visitor typed.
  searchBox: RefObject<HTMLInputElement | null>;
  onQueryChange: (query: string) => void;
  label: string;
  children?: ReactNode;
};

const FILTER_KEYS: readonly (keyof Filters)[] = ["search", "tag", "sort"];

const HiddenFields = ({ filters }: { filters: Partial<Filters> }) =>
  filterFields(filters).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);

/** Without JavaScript, a control changing one filter submits the form holding the others: each is in the URL once. */
export function choiceProps(change: Partial<Filters>) {
  const [field] = filterFields(change);
  return {
    type: "submit" as const,
    form: `${Object.keys(change)[0]}-choice`,
    ...(field && { name: field[0], value: field[1] }),
  };
}

export function SearchBar({ action, filters, searchBox, onQueryChange, label, children }: SearchBarProps) {
  return (
    <>
      {FILTER_KEYS.map((key) => (
        <form key={key} id={`${key}-choice`} method="get" action={action} hidden>
          <HiddenFields filters={{ ...filters, [key]: undefined }} />
        </form>
      ))}
      <Form
        method="get"
        action={action}
        role="search"
        className="search-bar"
        preventScrollReset
        onSubmit={(event) => event.preventDefault()}
      >
        <HiddenFields filters={{ ...filters, search: undefined }} />
        <label className="search-field">
          <span className="visually-hidden">{label}</span>
          <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24">
            <circle cx="11" cy="11" r="6" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M16 16l5 5" stroke="currentColor" strokeWidth="2" />
          </svg>
          <input
            type="search"
            name="q"
            placeholder="Search..."
            autoComplete="off"
            ref={searchBox}
            defaultValue={filters.search}
            onChange={(event) => onQueryChange(event.target.value)}
          />
        </label>
        {/* First, so that Enter in the box submits the search (the default button is the first one). */}
        <noscript>
          <button type="submit" className="text-button">
            Search
          </button>
        </noscript>
        <button
          {...choiceProps({ search: "" })}
          className="icon-button"
          hidden={!filters.search}
          onClick={(event) => {
            event.preventDefault();
            const box = searchBox.current;
            if (box) {
              box.value = "";
              box.focus();
            }
            onQueryChange("");
          }}
        >
          <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" />
          </svg>
          <span className="visually-hidden">Clear search</span>
        </button>
        {children}
      </Form>
    </>
  );
}
