import type { ReactNode } from "react";
import { formatContentDate } from "../../catalogue/dates.ts";
import type { Page } from "../../catalogue/schema.ts";

type ShownPage = Pick<Page, "title" | "description" | "updated" | "html">;

import { type PageHead, pageMeta } from "../lib/meta.ts";
import { Breadcrumb } from "./Breadcrumb.tsx";

type MetaArgs = {
  loaderData: { page: ShownPage } | undefined;
  matches: ReadonlyArray<{ loaderData?: unknown; pathname?: string } | undefined>;
};

/** The meta of a Markdown page route: its own title and description (and any more head fields). */
export function markdownPageMeta({ loaderData, matches }: MetaArgs, more: Partial<PageHead> = {}) {
  const head: PageHead | undefined = loaderData && {
    title: loaderData.page.title,
    description: loaderData.page.description,
    ...more,
  };
  return head ? pageMeta(matches, head) : [];
}

export function MarkdownPage({ page, children }: { page: ShownPage; children?: ReactNode }) {
  return (
    <article className="page prose-page">
      <Breadcrumb />
      <h1>{page.title}</h1>
      <p className="meta-line">
        Last updated <time dateTime={page.updated}>{formatContentDate(page.updated)}</time>
      </p>
      {/* Rendered at build time from the owner's own Markdown file. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: page.html }} />
      {children}
    </article>
  );
}
