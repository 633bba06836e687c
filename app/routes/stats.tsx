import { formatMonthYear } from "../../catalogue/dates.ts";
import { bookYears, changedMinds } from "../../catalogue/reading-life.ts";
import { readingStats, topRated } from "../../catalogue/stats.ts";
import { catalogue } from "../catalogue.server.ts";
import { BarChart } from "../components/BarChart.tsx";
import { Page } from "../components/Page.tsx";
import { PageLink } from "../components/PageLink.tsx";
import { ReadTimeFacts } from "../components/ReadTimeFacts.tsx";
import { ListSection, Section, TopRated } from "../components/Section.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/stats";

export const handle = pageHandle("stats");

export function loader() {
  return {
    stats: readingStats(catalogue.readNotes),
    ratingScale: catalogue.site.ratingScale,
    top: topRated(catalogue.readNotes).map(({ path, name, author, rating }) => ({ path, name, author, rating })),
    years: bookYears(catalogue.notes),
    changedMinds: changedMinds(catalogue.notes).map(({ readings: _readings, ...change }) => change),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Reading stats" });

export default function Stats({ loaderData: { stats, top, ratingScale, years, changedMinds } }: Route.ComponentProps) {
  return (
    <Page className="page stats-page" title="Reading stats">
      <p className="lede">
        {stats.total} book notes from {stats.firstYear} to {stats.lastYear}, in figures. Every note is in the{" "}
        <PageLink to="/notes">notes list</PageLink>.
      </p>
      <dl className="facts stats-facts">
        <dt>Notes</dt>
        <dd data-stat="total">{stats.total}</dd>
        <dt>Average rating</dt>
        <dd data-stat="average">{stats.averageRating.toFixed(1)} / 10</dd>
        <ReadTimeFacts time={stats.time} counted="Notes" />
      </dl>

      <div className="chart-grid">
        <Section id="per-year" title="Notes per year">
          <BarChart
            title="Books read each year"
            columns={["Year", "Notes"]}
            labelWidth={48}
            bars={stats.perYear.map(({ year, count }) => ({ label: year, value: count }))}
          />
        </Section>

        <Section id="average-per-year" title="Average rating per year">
          <BarChart
            title="Average rating of the books read each year"
            note="Out of 10; the full bar is 10."
            columns={["Year", "Average rating"]}
            labelWidth={48}
            max={10}
            format={(average) => average.toFixed(1)}
            bars={stats.averagePerYear.map(({ year, average }) => ({ label: year, value: average }))}
          />
        </Section>

        <Section id="ratings" title="How the ratings spread">
          <BarChart
            title="Notes per rating, highest first"
            columns={["Rating", "Notes"]}
            bars={stats.ratings.map(({ label, count }) => ({ label, value: count }))}
          />
        </Section>

        <Section id="how-i-rate" title="How I rate">
          {/* Rendered at build time from the owner's own site.yaml. */}
          <div dangerouslySetInnerHTML={{ __html: ratingScale.intro }} />
          <dl className="rating-bands">
            {ratingScale.bands.map(({ band, meaning }) => (
              <div key={band}>
                <dt>{band}</dt>
                <dd>{meaning}</dd>
              </div>
            ))}
          </dl>
        </Section>

        <Section id="tags" title="Most common tags">
          <BarChart
            title={`The ${stats.tags.length} most used tags`}
            note="A note has up to three tags."
            columns={["Tag", "Notes"]}
            labelWidth={112}
            bars={stats.tags.map(({ tag, count }) => ({ label: tag, value: count }))}
          />
        </Section>

        <TopRated id="top-rated" title="Top-rated books" books={top} />
      </div>

      <ListSection
        id="changed-mind"
        title="Books I changed my mind about"
        className="changed-minds"
        items={changedMinds}
      >
        {(book) => (
          <li key={book.last.path}>
            <PageLink to={book.last.path}>{book.name}</PageLink> <span className="meta-line">by {book.author}</span>:{" "}
            <span className="top-rating">
              {book.first.rating.toFixed(1)} → {book.last.rating.toFixed(1)}
            </span>{" "}
            <span className="meta-line">
              ({book.change > 0 ? "+" : "−"}
              {Math.abs(book.change).toFixed(1)},{" "}
              <time dateTime={book.first.date}>{formatMonthYear(book.first.date)}</time> to{" "}
              <time dateTime={book.last.date}>{formatMonthYear(book.last.date)}</time>)
            </span>
          </li>
        )}
      </ListSection>

      <nav aria-labelledby="years" className="year-links">
        <h2 id="years">Year in books</h2>
        <ul>
          {years.map((year) => (
            <li key={year}>
              <PageLink to={`/stats/${year}`}>{year}</PageLink>
            </li>
          ))}
        </ul>
      </nav>
    </Page>
  );
}
