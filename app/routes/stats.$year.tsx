import { bookYears, yearInBooks } from "../../catalogue/reading-life.ts";
import { ratingText } from "../../catalogue/shelves.ts";
import { fillTemplate } from "../../catalogue/template.ts";
import { yearTitle } from "../../outputs/card.ts";
import { bookListLd } from "../../outputs/structured-data.ts";
import { catalogue, notFound } from "../catalogue.server.ts";
import { BarChart } from "../components/BarChart.tsx";
import { GoalMeter, ShelfSection } from "../components/BookShelf.tsx";
import { Page } from "../components/Page.tsx";
import { PageLink } from "../components/PageLink.tsx";
import { Pager } from "../components/Pager.tsx";
import { ReadTimeFacts } from "../components/ReadTimeFacts.tsx";
import { Section, TopRated } from "../components/Section.tsx";
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
  const { read, top, reReads, didNotFinish, ...figures } = yearInBooks(catalogue.notes, params.year);
  const { yearDescription } = catalogue.site.sections.stats;
  return {
    year: {
      ...figures,
      read: read.map(bookLink),
      top: top.map(bookLink),
      reReads: reReads.map(bookLink),
      didNotFinish: didNotFinish.map(bookLink),
    },
    goal: goalOf(params.year),
    previous: years[index - 1] ?? null,
    next: years[index + 1] ?? null,
    description: fillTemplate(yearDescription, { year: params.year, count: String(read.length) }),
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

export default function YearInBooks({ loaderData: { year, goal, previous, next } }: Route.ComponentProps) {
  return (
    <Page className="page stats-page year-page" title={yearTitle(year.year)}>
      <dl className="facts stats-facts">
        <dt>Books read</dt>
        <dd data-stat="count">{year.count}</dd>
        <dt>Average rating</dt>
        <dd data-stat="average">{year.count > 0 ? ratingText(year.averageRating) : "–"}</dd>
        <ReadTimeFacts time={year.time} counted="Books" />
      </dl>
      {goal && <GoalMeter goal={goal} />}

      <Section id="year-books" title="The books, in reading order">
        <ol className="year-covers">
          {year.read.map((book) => (
            <li key={book.slug}>
              <PageLink to={book.path} title={`${book.name} by ${book.author}`}>
                <img src={book.photo} alt={book.name} width={86} height={127} loading="lazy" decoding="async" />
              </PageLink>
            </li>
          ))}
        </ol>
      </Section>

      <div className="chart-grid">
        <TopRated id="year-top" title="Highest rated" books={year.top} />
        {year.tags.length > 0 && (
          <Section id="year-tags" title="Tags">
            <BarChart
              title={`Tags of the books read in ${year.year}`}
              columns={["Tag", "Books"]}
              labelWidth={112}
              bars={year.tags.map(({ tag, count }) => ({ label: tag, value: count }))}
            />
          </Section>
        )}
      </div>

      <ShelfSection id="year-rereads" title="Re-reads" books={year.reReads} />
      <ShelfSection id="year-dnf" title="Did not finish" books={year.didNotFinish} />

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
    </Page>
  );
}
