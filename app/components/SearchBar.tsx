import type { ReactNode, RefObject } from "react";
import { Form } from "react-router";

type SearchBarProps = {
  action: string;
  query: string;
  // Uncontrolled, so no render ever writes over a key the visitor typed.
  searchBox: RefObject<HTMLInputElement | null>;
  onQueryChange: (query: string) => void;
  hidden?: Record<string, string>;
  label: string;
  children?: ReactNode;
};

export function SearchBar({ action, query, searchBox, onQueryChange, hidden = {}, label, children }: SearchBarProps) {
  return (
    <Form
      method="get"
      action={action}
      role="search"
      className="search-bar"
      preventScrollReset
      onSubmit={(event) => event.preventDefault()}
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
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
          defaultValue={query}
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
        type="submit"
        name="q"
        value=""
        className="icon-button"
        hidden={!query}
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
  );
}
