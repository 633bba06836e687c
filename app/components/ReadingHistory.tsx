import { Fragment } from "react";
import { formatMonthYear } from "../../catalogue/dates.ts";
import type { Mention, ReadingEntry } from "../../catalogue/reading-life.ts";
import { SHELF_LABELS } from "../../catalogue/shelves.ts";
import { PageLink } from "./PageLink.tsx";
import { ListSection, Section } from "./Section.tsx";

function readingText(entry: ReadingEntry): string {
  const when = formatMonthYear(entry.date);
  if (entry.rating !== null) return `${entry.rating.toFixed(1)} (${when})`;
  return `${SHELF_LABELS[entry.shelf].toLowerCase()} (${when})`;
}

export function ReadingHistory({ readings, current }: { readings: readonly ReadingEntry[]; current: string }) {
  if (readings.length < 2) return null;
  const finished = readings.filter((entry) => entry.shelf === "read").length;
  return (
    <Section id="readings" title="Readings of this book" className="reading-history">
      <p>
        <strong>
          Read {finished} {finished === 1 ? "time" : "times"}
        </strong>{" "}
        —{" "}
        {readings.map((entry, index) => (
          <Fragment key={entry.slug}>
            {index > 0 && " → "}
            {entry.slug === current ? (
              <span aria-current="page">{readingText(entry)}</span>
            ) : (
              <PageLink to={entry.path}>{readingText(entry)}</PageLink>
            )}
          </Fragment>
        ))}
      </p>
    </Section>
  );
}

export function MentionedIn({ mentions }: { mentions: readonly Mention[] }) {
  return (
    <ListSection id="mentioned-in" title="Mentioned in" className="reading-list" items={mentions}>
      {(mention) => (
        <li key={mention.path}>
          <PageLink to={mention.path}>{mention.name}</PageLink>{" "}
          <span className="meta-line">
            <time dateTime={mention.date}>{formatMonthYear(mention.date)}</time>
          </span>
        </li>
      )}
    </ListSection>
  );
}
