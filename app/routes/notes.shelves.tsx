import { SHELF_LABELS, SHELF_PAGE_ORDER } from "../../catalogue/shelves.ts";
import { bookListLd } from "../../outputs/structured-data.ts";
import { catalogue } from "../catalogue.server.ts";
import { BookShelf } from "../components/BookShelf.tsx";
import { Page } from "../components/Page.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { SITE_URL } from "../lib/site-url.ts";
import { bookLink } from "../reading.server.ts";
import type { Route } from "./+types/notes.shelves";

export const handle = pageHandle("shelves");

export function loader() {
  return {
    shelves: SHELF_PAGE_ORDER.map((shelf) => ({
      shelf,
      label: SHELF_LABELS[shelf],
      books: catalogue.shelves[shelf].map(bookLink),
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  pageMeta(matches, {
    title: "Shelves",
    structuredData: (loaderData?.shelves ?? [])
      .filter(({ books }) => books.length > 0)
      .map(({ label, books }) => bookListLd(label, "/notes/shelves", books, SITE_URL)),
  });

export default function Shelves({ loaderData: { shelves } }: Route.ComponentProps) {
  return (
    <Page className="page shelves-page" title="Shelves">
      {shelves.map(({ shelf, label, books }) => (
        <section key={shelf} aria-labelledby={`shelf-${shelf}`}>
          <h2 id={`shelf-${shelf}`}>
            {label} <span className="meta-line">({books.length})</span>
          </h2>
          {books.length > 0 ? <BookShelf books={books} label={label} /> : <p className="meta-line">No books</p>}
        </section>
      ))}
    </Page>
  );
}
