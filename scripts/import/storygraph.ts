import { nestingProblem } from "../../catalogue/nesting.ts";
import type { Shelf } from "../../catalogue/schema.ts";
import { labelsFrom, normaliseIsbn, type Reading, type SourceBooks, siteRating, sourceDay } from "./book.ts";
import { missingColumns, readCsv } from "./csv.ts";
import { reviewToMarkdown } from "./html-markdown.ts";
import { sourceRows } from "./source-rows.ts";

const REQUIRED = ["Title", "Authors", "Read Status", "Star Rating", "Date Added"];

const STATUSES: Record<string, Shelf> = {
  read: "read",
  "currently-reading": "reading",
  "to-read": "want",
  "did-not-finish": "did-not-finish",
};

export type Span = { start: string | null; end: string | null };

export function readingSpans(text: string): Span[] | null {
  const spans: Span[] = [];
  for (const part of text
    .split(/[,;]/)
    .map((piece) => piece.trim())
    .filter(Boolean)) {
    const [startText = "", endText = ""] = part.split(/\s*-\s*(?=\d{4}|$)|\s+to\s+/);
    const start = startText ? sourceDay(startText) : null;
    const end = endText ? sourceDay(endText) : null;
    if ((startText && !start) || (endText && !end) || (!start && !end)) return null;
    spans.push({ start, end });
  }
  return spans;
}

export async function readStoryGraph(input: string | AsyncIterable<string>, scale: number): Promise<SourceBooks> {
  const table = await readCsv(input);
  const notStoryGraph = missingColumns(
    table,
    REQUIRED,
    "a StoryGraph export (Manage Account, Export StoryGraph Library)",
  );
  if (notStoryGraph) throw new Error(notStoryGraph);
  const { books: result, rows } = sourceRows(table, {
    author: "Authors",
    shelf: "Read Status",
    shelfName: "read status",
    rating: "Star Rating",
    review: "Review",
    shelves: STATUSES,
  });
  for (const { line, field, title, author, shelf, stars, unreadable } of rows) {
    const spans = readingSpans(field("Dates Read"));
    if (spans === null) {
      unreadable(`Dates Read "${field("Dates Read")}" is not a list of readings like 2021/03/04-2021/03/20`);
      continue;
    }
    const added = sourceDay(field("Date Added"));
    const lastRead = field("Last Date Read") ? sourceDay(field("Last Date Read")) : null;
    if (!added) {
      unreadable(`Date Added "${field("Date Added")}" is not a day written like 2019/03/14`);
      continue;
    }
    const book = {
      line,
      title,
      author,
      isbn: normaliseIsbn(field("ISBN/UID")),
      labels: labelsFrom(field("Tags")),
    };
    const tooDeep = nestingProblem(field("Review"));
    if (tooDeep) {
      unreadable(`Review ${tooDeep}`);
      continue;
    }
    const rating = siteRating(stars, scale);
    const review = reviewToMarkdown(field("Review")).markdown;
    // Every reading before the last was read to the end; the status tells what the last one is.
    const ends = shelf === "read" || shelf === "want" ? spans : spans.slice(0, -1);
    const last = spans.at(-1);
    const readings: Reading[] = ends.map((span) => ({
      ...book,
      shelf: "read",
      date: span.end ?? span.start ?? added,
      rating,
      review: "",
    }));
    if (shelf === "read" && readings.length === 0) {
      readings.push({ ...book, shelf, date: lastRead ?? added, rating, review: "" });
    }
    if (shelf === "reading") readings.push({ ...book, shelf, date: last?.start ?? added, rating: null, review: "" });
    if (shelf === "want") readings.push({ ...book, shelf, date: added, rating: null, review: "" });
    if (shelf === "did-not-finish") {
      readings.push({ ...book, shelf, date: last?.end ?? last?.start ?? lastRead ?? added, rating, review: "" });
    }
    const latest = readings.at(-1);
    if (latest) latest.review = review;
    if (readings.length > 1 && rating !== null) {
      result.remarks.push(
        `line ${line}: "${title}" has ${readings.length} readings; StoryGraph keeps one rating and review per book, so each reading gets the rating and the last one the review.`,
      );
    }
    result.readings.push(...readings);
  }
  return result;
}
