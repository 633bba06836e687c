import { nestingProblem } from "../../catalogue/nesting.ts";
import {
  type BookSource,
  labelsFrom,
  normaliseIsbn,
  type Reading,
  readBooks,
  SHELVES_BY_NAME,
  sourceDay,
} from "./book.ts";
import { reviewToMarkdown } from "./html-markdown.ts";

export function readingSpans(text: string) {
  const spans: { start: string | null; end: string | null }[] = [];
  for (const part of labelsFrom(text.replaceAll(";", ","))) {
    const [startText = "", endText = ""] = part.split(/\s*-\s*(?=\d{4}|$)|\s+to\s+/);
    const start = startText ? sourceDay(startText) : null;
    const end = endText ? sourceDay(endText) : null;
    if ((startText && !start) || (endText && !end) || (!start && !end)) return null;
    spans.push({ start, end });
  }
  return spans;
}

const STORYGRAPH: BookSource = {
  what: "a StoryGraph export (Manage Account, Export StoryGraph Library)",
  required: ["Title", "Authors", "Read Status", "Star Rating", "Date Added"],
  author: "Authors",
  shelf: "Read Status",
  rating: "Star Rating",
  review: "Review",
  shelves: SHELVES_BY_NAME,
  readings: ({ line, field, title, author, shelf }, rating, remark) => {
    const spans = readingSpans(field("Dates Read"));
    if (spans === null)
      return `Dates Read "${field("Dates Read")}" is not a list of readings like 2021/03/04-2021/03/20`;
    const added = sourceDay(field("Date Added"));
    const lastRead = field("Last Date Read") ? sourceDay(field("Last Date Read")) : null;
    if (!added) return `Date Added "${field("Date Added")}" is not a day written like 2019/03/14`;
    const tooDeep = nestingProblem(field("Review"));
    if (tooDeep) return `Review ${tooDeep}`;
    const isbn = normaliseIsbn(field("ISBN/UID"));
    const book = { line, title, author, isbn, labels: labelsFrom(field("Tags")), rating, review: "" };
    // Every reading before the last was read to the end; the status tells what the last one is.
    const ends = shelf === "read" || shelf === "want" ? spans : spans.slice(0, -1);
    const last = spans.at(-1);
    const readings: Reading[] = ends.map((span) => ({ ...book, shelf: "read", date: span.end ?? span.start ?? added }));
    if (shelf === "read" && readings.length === 0) readings.push({ ...book, shelf, date: lastRead ?? added });
    if (shelf === "reading") readings.push({ ...book, shelf, date: last?.start ?? added, rating: null });
    if (shelf === "want") readings.push({ ...book, shelf, date: added, rating: null });
    if (shelf === "did-not-finish")
      readings.push({ ...book, shelf, date: last?.end ?? last?.start ?? lastRead ?? added });
    const latest = readings.at(-1);
    if (latest) latest.review = reviewToMarkdown(field("Review")).markdown;
    if (readings.length > 1 && rating !== null) {
      remark(
        `line ${line}: "${title}" has ${readings.length} readings; StoryGraph keeps one rating and review per book, so each reading gets the rating and the last one the review.`,
      );
    }
    return readings;
  },
};

export const readStoryGraph = (input: string | AsyncIterable<string>, scale: number) =>
  readBooks(input, STORYGRAPH, scale);
