import { bookYears, yearInBooks } from "../../catalogue/reading-life.ts";
import { ratingText } from "../../catalogue/shelves.ts";
import { formatDuration } from "../../catalogue/stats.ts";
import { fillTemplate } from "../../catalogue/template.ts";
import { yearTitle } from "../../outputs/card.ts";
import { bookListLd } from "../../outputs/structured-data.ts";
import { catalogue, notFound } from "../catalogue.server.ts";
import { BarChart } from "../components/BarChart.tsx";
import { BookShelf, GoalMeter } from "../components/BookShelf.tsx";
import { Breadcrumb } from "../components/Breadcrumb.tsx";
import { PageLink } from "../components/PageLink.tsx";
import { Pager } from "../components/Pager.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { SITE_URL } from "../lib/site-url.ts";
import { bookLink, goalOf } from "../reading.server.ts";
import type { Route } from "./+types/stats.$year";

export const handle = pageHandle("stats", { item: (data: Route.ComponentProps["loaderData"]) => data.year.year });

export function loader({ params }: Route.LoaderArgs) {
  const years = bookYears(catalogue.notes);
  const index = years.indexOf(params.year);
  if (index === -1) notFound();
  const year = yearInBooks(catalogue.notes, params.year, catalogue.site.goal[params.year]);
  const description = fillTemplate(catalogue.site.sections.stats.yearDescription, {
    year: year.year,
    count: String(year.count),
  });
  return {
    year: {
      year: year.year,
      count: year.count,
      time: year.time,
      averageRating: year.averageRating,
      tags: year.tags,
      read: year.read.map(bookLink),
      top: year.top.map(bookLink),
      reReads: year.reReads.map(bookLink),
      didNotFinish: year.didNotFinish.map(bookLink),
    },
    goal: goalOf(params.year),
    previous: years[index - 1] ?? null,
    next: years[index + 1] ?? null,
    description,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const title = yearTitle(loaderData.year.year);
  return pageMeta(matches, {
    title,
    description: loaderData.description,
    structuredData: [bookListLd(title, `/stats/${loaderData.year.year}`, loaderData.year.read, SITE_URL)],
  });
};

/** A year in books: that year's covers in reading order, its figures, its re-reads and the books given up. */
export default function YearInBooks({ loaderData: { year, goal, previous, next } }: Route.ComponentProps) {
  return (
    <div className="page stats-page year-page">
      <Breadcrumb />
      <h1>{yearTitle(year.year)}</h1>
      <dl className="facts stats-facts">
        <dt>Books read</dt>
        <dd data-stat="count">{year.count}</dd>
        <dt>Average rating</dt>
        <dd data-stat="average">{year.count > 0 ? ratingText(year.averageRating) : "–"}</dd>
        <dt>Total read time</dt>
        <dd data-stat="time">{formatDuration(year.time.totalMinutes)}</dd>
      </dl>
      {goal && <GoalMeter goal={goal} />}

      <section aria-labelledby="year-books">
        <h2 id="year-books">The books, in reading order</h2>
        <ol className="year-covers">
          {year.read.map((book) => (
            <li key={book.slug}>
              <PageLink to={book.path} title={`${book.name} by ${book.author}`}>
                <img src={book.photo} alt={book.name} width={86} height={127} loading="lazy" decoding="async" />
              </PageLink>
            </li>
          ))}
        </ol>
      </section>

      <div className="chart-grid">
        {year.top.length > 0 && (
          <section aria-labelledby="year-top">
            <h2 id="year-top">Highest rated</h2>
            <ol className="top-rated">
              {year.top.map((book) => (
                <li key={book.slug}>
                  <PageLink to={book.path}>{book.name}</PageLink> <span className="meta-line">by {book.author}</span>{" "}
                  <span className="top-rating">{book.rating?.toFixed(1)}</span>
                </li>
              ))}
            </ol>
          </section>
        )}
        {year.tags.length > 0 && (
          <section aria-labelledby="year-tags">
            <h2 id="year-tags">Tags</h2>
            <BarChart
              title={`Tags of the books read in ${year.year}`}
              columns={["Tag", "Books"]}
              labelWidth={112}
              bars={year.tags.map(({ tag, count }) => ({ label: tag, value: count, text: String(count) }))}
            />
          </section>
        )}
      </div>

      {year.reReads.length > 0 && (
        <section aria-labelledby="year-rereads">
          <h2 id="year-rereads">Re-reads</h2>
          <BookShelf books={year.reReads} label="Re-reads" />
        </section>
      )}
      {year.didNotFinish.length > 0 && (
        <section aria-labelledby="year-dnf">
          <h2 id="year-dnf">Did not finish</h2>
          <BookShelf books={year.didNotFinish} label="Did not finish" />
        </section>
      )}

      <Pager
        label="Other years"
        previous={previous ? { to: `/stats/${previous}`, text: String(previous) } : null}
        next={next ? { to: `/stats/${next}`, text: String(next) } : null}
        previousLabel="Year before"
        nextLabel="Year after"
      />
      <p className="meta-line">
        <PageLink to="/stats">Reading stats</PageLink>
      </p>
    </div>
  );
}
