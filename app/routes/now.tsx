import { catalogue, forPage } from "../catalogue.server.ts";
import { GoalMeter, ReadingNow } from "../components/BookShelf.tsx";
import { MarkdownPage, markdownPageMeta } from "../components/MarkdownPage.tsx";
import { pageHandle } from "../lib/page-handle.ts";
import { goalThisYear, readingNow } from "../reading.server.ts";
import type { Route } from "./+types/now";

export const handle = pageHandle("now");

export function loader() {
  return { page: forPage(catalogue.pages.now), readingNow: readingNow(), goal: goalThisYear() };
}

export const meta = markdownPageMeta;

export default function Page({ loaderData }: Route.ComponentProps) {
  const { page, readingNow: books, goal } = loaderData;
  return (
    <MarkdownPage page={page}>
      <ReadingNow books={books} />
      {goal && <GoalMeter goal={goal} />}
    </MarkdownPage>
  );
}
