import { renderWithAbsoluteLinks } from "../../catalogue/derive.ts";
import type { Catalogue } from "../../catalogue/load.ts";
import type { UpdateIssue } from "../../catalogue/schema.ts";
import { absoluteUrl } from "../../catalogue/site-url.ts";
import { type IssueContent, markdownAsPlainText } from "./mail.ts";
import type { IssueToSend } from "./worker.ts";

export function issueToSend(issue: UpdateIssue, siteName: string, siteUrl: string): IssueToSend {
  return {
    slug: issue.slug,
    subject: issue.title,
    bodyHtml: renderWithAbsoluteLinks(issue.markdown, siteUrl),
    bodyText: markdownAsPlainText(issue.markdown, siteUrl),
    issueUrl: absoluteUrl(siteUrl, issue.path),
    siteName,
  };
}

export function issueContentOf(issue: IssueToSend, siteUrl: string): IssueContent {
  return {
    title: issue.subject,
    bodyHtml: issue.bodyHtml,
    bodyText: issue.bodyText,
    issueUrl: issue.issueUrl,
    siteName: issue.siteName,
    siteUrl,
  };
}

/** `since` is the last sent issue's ISO day. */
export function draftText(
  catalogue: Catalogue,
  { title, date, since }: { title: string; date: string; since?: string },
) {
  const after = <T extends { date: string }>(items: readonly T[]) =>
    items.filter((item) => since === undefined || item.date > since);
  const writings = after(catalogue.writings).map((writing) => `- [${writing.name}](${writing.path})`);
  const notes = after(catalogue.notes).map((note) => `- [${note.name}](${note.path}) by ${note.author}`);
  const sections = [
    ...(writings.length > 0 ? ["## New essays", "", ...writings, ""] : []),
    ...(notes.length > 0 ? ["## New book notes", "", ...notes, ""] : []),
  ];
  return [
    "---",
    `title: ${JSON.stringify(title)}`,
    `date: ${JSON.stringify(date)}`,
    "draft: true",
    "---",
    "Write the opening of this issue here.",
    "",
    ...sections,
  ].join("\n");
}
