import { formatMonthYear } from "../../catalogue/dates.ts";
import type { GoalProgress } from "../../catalogue/reading-life.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import { ratingText, SHELF_LABELS } from "../../catalogue/shelves.ts";
import type { BookLink } from "../reading.server.ts";
import { PageLink } from "./PageLink.tsx";
import { Section } from "./Section.tsx";

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
              {book.rating !== null && (
                <>
                  {" · "}
                  <span className="nowrap">Rated {ratingText(book.rating)}</span>
                </>
              )}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

type ShelfSectionProps = { id: string; title: string; className?: string; books: readonly BookLink[] };

export function ShelfSection({ id, title, className, books }: ShelfSectionProps) {
  if (books.length === 0) return null;
  return (
    <Section id={id} title={title} className={className}>
      <BookShelf books={books} label={title} />
    </Section>
  );
}

export function ReadingNow({ books }: { books: readonly BookLink[] }) {
  return <ShelfSection id="reading-now" title={SHELF_LABELS.reading} className="reading-now" books={books} />;
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
