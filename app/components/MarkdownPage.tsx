import type { ReactNode } from "react";
import { formatMonthYear } from "../../catalogue/dates.ts";
import type { Page as PageContent } from "../../catalogue/schema.ts";
import { type MetaMatch, type PageHead, pageMeta } from "../lib/meta.ts";
import { Page } from "./Page.tsx";

type ShownPage = Pick<PageContent, "title" | "description" | "updated" | "html">;

type MetaArgs = { loaderData: { page: ShownPage } | undefined; matches: ReadonlyArray<MetaMatch> };

export function markdownPageMeta({ loaderData, matches }: MetaArgs, more: Partial<PageHead> = {}) {
  if (!loaderData) return [];
  const { title, description } = loaderData.page;
  return pageMeta(matches, { title, description, ...more });
}

export function MarkdownPage({ page, children }: { page: ShownPage; children?: ReactNode }) {
  return (
    <Page className="page prose-page" as="article" title={page.title}>
      <p className="meta-line">
        Last updated <time dateTime={page.updated}>{formatMonthYear(page.updated)}</time>
      </p>
      {/* Rendered at build time from the owner's own Markdown file. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: page.html }} />
      {children}
    </Page>
  );
}
