import { formatMonthYear } from "../../catalogue/dates.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import { ratingText, SHELF_LABELS } from "../../catalogue/shelves.ts";
import type { BookLink, GoalProgress } from "../reading.server.ts";
import { PageLink } from "./PageLink.tsx";

export const DATE_LABELS: Record<Shelf, string> = {
  read: "Read",
  reading: "Started",
  want: "Added",
  "did-not-finish": "Stopped",
};

export function BookShelf({ books, label }: { books: readonly BookLink[]; label: string }) {
  return (
    <ul className="book-shelf" aria-label={label}>
      {books.map((book) => (
        <li key={book.slug} className="book-shelf-entry">
          <img src={book.photo} alt="" width={64} height={94} loading="lazy" decoding="async" />
          <div>
            <PageLink to={book.path} className="note-title">
              {book.name}
            </PageLink>
            <p className="note-author">{book.author}</p>
            <p className="meta-line">
              {DATE_LABELS[book.shelf]} <time dateTime={book.date}>{formatMonthYear(book.date)}</time>
              {book.rating !== null && ` · Rated ${ratingText(book.rating)}`}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function ReadingNow({ books }: { books: readonly BookLink[] }) {
  if (books.length === 0) return null;
  return (
    <section aria-labelledby="reading-now" className="reading-now">
      <h2 id="reading-now">{SHELF_LABELS.reading}</h2>
      <BookShelf books={books} label={SHELF_LABELS.reading} />
    </section>
  );
}

export function GoalMeter({ goal }: { goal: GoalProgress }) {
  return (
    <p className="goal">
      <label htmlFor={`goal-${goal.year}`}>Reading goal {goal.year}</label>{" "}
      <meter id={`goal-${goal.year}`} min={0} max={goal.books} value={Math.min(goal.done, goal.books)} />{" "}
      <span data-stat="goal">
        {goal.done} of {goal.books} books
      </span>
    </p>
  );
}
