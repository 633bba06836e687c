import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderWithAbsoluteLinks } from "../../catalogue/derive.ts";
import type { Catalogue } from "../../catalogue/load.ts";
import { writeNewFile } from "../../catalogue/new-file.ts";
import { chooseSlug, contentDateOf } from "../../catalogue/new-item.ts";
import type { UpdateIssue } from "../../catalogue/schema.ts";
import { absoluteUrl } from "../../catalogue/site-url.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/database.ts";
import { messageIdDomainOf } from "../mail/outbox.ts";
import { createMailer } from "../mail/transport.ts";
import { issueMail, markdownAsPlainText, unsubscribeUrl, WELCOME_SLUG } from "./mail.ts";

/** What the owner must set right before the newsletter can go on; the message says what. */
export class Refusal extends Error {}

export type IssueToSend = ReturnType<typeof issueToSend>;

export function issueToSend(issue: UpdateIssue, siteName: string, siteUrl: string) {
  return {
    slug: issue.slug,
    subject: issue.title,
    bodyHtml: renderWithAbsoluteLinks(issue.markdown, siteUrl),
    bodyText: markdownAsPlainText(issue.markdown, siteUrl),
    issueUrl: absoluteUrl(siteUrl, issue.path),
    siteName,
  };
}

const allIssues = (catalogue: Catalogue) => [...catalogue.updates, ...catalogue.updateDrafts];

export function findIssue(catalogue: Catalogue, slug: string, { published }: { published: boolean }): UpdateIssue {
  const issue = allIssues(catalogue).find((candidate) => candidate.slug === slug);
  if (!issue) {
    const known = allIssues(catalogue).map((candidate) => candidate.slug);
    throw new Refusal(`No issue "${slug}" in content/updates/.${known.length ? ` Issues: ${known.join(", ")}.` : ""}`);
  }
  if (published && issue.draft)
    throw new Refusal(`"${slug}" is a draft: remove "draft: true" from its file to send it.`);
  return issue;
}

const quoteTitle = ({ text, attribution }: Catalogue["quotes"][number]) =>
  `“${(text.length <= 80 ? text : `${text.slice(0, text.lastIndexOf(" ", 80))} …`).replace(/\s+/g, " ")}” — ${attribution}`;

/**
 * Lists what was published since the last sent issue (or the last published one); a digest, since the
 * newest published issue, lists quotes too and is not written when nothing is new.
 */
export async function writeDraft(
  root: string,
  catalogue: Catalogue,
  db: Db,
  { title, digest = false }: { title?: string; digest?: boolean } = {},
  today = new Date(),
) {
  const lastSend = await db
    .selectFrom("newsletter_sends")
    .select("slug")
    .where("slug", "!=", WELCOME_SLUG)
    .orderBy("id", "desc")
    .executeTakeFirst();
  const lastIssue = catalogue.updates[0]?.date;
  const since = digest
    ? lastIssue
    : (allIssues(catalogue).find((issue) => issue.slug === lastSend?.slug)?.date ?? lastIssue);
  title ??= `Update of ${today.toLocaleString("en", { month: "long", year: "numeric" })}`;
  const slug = chooseSlug(title, new Set(allIssues(catalogue).map((issue) => issue.slug)));
  const after = <T extends { date: string }>(items: readonly T[]) =>
    items.filter((item) => since === undefined || item.date > since);
  const quotes = digest ? after(catalogue.quotes.map((quote) => ({ ...quote, date: quote.note.date }))) : [];
  const sections = [
    ["New essays", after(catalogue.writings).map((writing) => `- [${writing.name}](${writing.path})`)],
    ["New book notes", after(catalogue.notes).map((note) => `- [${note.name}](${note.path}) by ${note.author}`)],
    ["New quotes", quotes.map((quote) => `- [${quoteTitle(quote)}](${quote.path})`)],
  ] as const;
  if (digest && sections.every(([, lines]) => lines.length === 0)) {
    throw new Refusal(`Nothing was published since the last issue${since ? ` (${since})` : ""}: no digest written.`);
  }
  const text = [
    "---",
    `title: ${JSON.stringify(title)}`,
    `date: ${JSON.stringify(contentDateOf(today))}`,
    "draft: true",
    "---",
    "Write the opening of this issue here.",
    "",
    ...sections.flatMap(([heading, lines]) => (lines.length > 0 ? [`## ${heading}`, "", ...lines, ""] : [])),
  ].join("\n");
  const path = join(root, "content/updates", `${slug}.md`);
  mkdirSync(join(root, "content/updates"), { recursive: true });
  if (!writeNewFile(path, text)) throw new Refusal(`${path} exists already.`);
  return { path, slug, since };
}

/** The link names nobody: opened, it shows the page for a link that is not valid. */
const mailToOwner = (config: Config, catalogue: Catalogue, issue: UpdateIssue) =>
  issueMail(
    issueToSend(issue, catalogue.site.name, config.siteUrl),
    config.siteUrl,
    unsubscribeUrl(config.siteUrl, "preview"),
  );

export function writePreview(config: Config, catalogue: Catalogue, issue: UpdateIssue): string[] {
  const mail = mailToOwner(config, catalogue, issue);
  const folder = join(config.dataDir, "newsletter-preview");
  mkdirSync(folder, { recursive: true });
  const html = join(folder, `${issue.slug}.html`);
  const text = join(folder, `${issue.slug}.txt`);
  writeFileSync(html, mail.html);
  writeFileSync(text, mail.text);
  return [html, text];
}

export async function mailTest(config: Config, catalogue: Catalogue, issue: UpdateIssue): Promise<void> {
  const mailer = createMailer(config);
  try {
    await mailer.deliver({
      ...mailToOwner(config, catalogue, issue),
      messageId: `<newsletter-test.${Date.now()}.${issue.slug}@${messageIdDomainOf(config.mailFrom)}>`,
      date: new Date(),
      to: config.ownerEmail,
      subject: `[Test] ${issue.title}`,
    });
  } catch (error) {
    throw new Refusal(`The test mail was not sent: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    mailer.close();
  }
}
