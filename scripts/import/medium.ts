/**
 * Medium's "Download your information" archive (a zip, or the folder it unpacks to): each
 * published post in posts/*.html becomes an essay; drafts and replies are counted and left out.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { unzipSync } from "fflate";
import { DomUtils, parseDocument } from "htmlparser2";
import { nestingProblem } from "../../catalogue/nesting.ts";
import { htmlToMarkdown } from "./html-markdown.ts";

export type MediumFile = { name: string; html: string };

export type MediumPost = {
  file: string;
  title: string;
  /** ISO day it was published. */
  date: string;
  /** The post's canonical address on Medium. */
  url: string;
  markdown: string;
  /** Remote images of the post, left as links for the owner to fetch. */
  images: string[];
  words: number;
};

export type MediumReading =
  | { kind: "post"; post: MediumPost }
  | { kind: "draft" | "reply"; file: string }
  | { kind: "unreadable"; file: string; reason: string };

const POST_FILE = /(?:^|\/)posts\/([^/]+\.html)$/;

/** The posts/*.html files of an archive: the zip file or the folder it unpacks to. */
export function mediumFiles(path: string): MediumFile[] {
  if (statSync(path).isDirectory()) {
    const postsFolder = join(path, "posts");
    const folder = statSync(postsFolder, { throwIfNoEntry: false })?.isDirectory() ? postsFolder : path;
    return readdirSync(folder)
      .filter((name) => name.endsWith(".html"))
      .sort()
      .map((name) => ({ name, html: readFileSync(join(folder, name), "utf8") }));
  }
  const entries = unzipSync(readFileSync(path), { filter: (entry) => POST_FILE.test(entry.name) });
  return Object.entries(entries)
    .map(([name, bytes]) => ({ name: basename(name), html: new TextDecoder().decode(bytes) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

type ElementTest = Parameters<typeof DomUtils.findOne>[0];

const hasClass = (className: string) => (element: { attribs: Record<string, string> }) =>
  (element.attribs.class ?? "").split(/\s+/).includes(className);

/** Medium's reading time: about 265 words a minute, at least one. */
export const readingMinutes = (words: number) => Math.max(1, Math.round(words / 265));

/**
 * One post file. A draft is named draft_… and has no publication time; a reply has no title of
 * its own (Medium's export gives its body no title heading).
 */
export function readMediumPost({ name, html }: MediumFile): MediumReading {
  const tooDeep = nestingProblem(html);
  if (tooDeep) return { kind: "unreadable", file: name, reason: `it ${tooDeep}` };
  const document = parseDocument(html);
  const find = (test: ElementTest) => DomUtils.findOne(test, document.children, true);
  const published = find((element) => element.name === "time" && hasClass("dt-published")(element));
  if (name.startsWith("draft_") || !published) return { kind: "draft", file: name };
  const body = find((element) => element.name === "section" && element.attribs["data-field"] === "body");
  if (!body) return { kind: "unreadable", file: name, reason: "it has no body section" };
  if (!DomUtils.findOne(hasClass("graf--title"), body.children, true)) return { kind: "reply", file: name };
  const heading = find((element) => element.name === "h1" && hasClass("p-name")(element));
  const title = DomUtils.textContent(heading ?? body)
    .trim()
    .replace(/\s+/g, " ");
  const date = /^\d{4}-\d{2}-\d{2}/.exec(published.attribs.datetime ?? "")?.[0];
  if (!title) return { kind: "unreadable", file: name, reason: "it has no title" };
  if (!date) return { kind: "unreadable", file: name, reason: "its publication time is not a date" };
  const canonical = find((element) => element.name === "a" && hasClass("p-canonical")(element));
  const { markdown, images } = htmlToMarkdown(DomUtils.getInnerHTML(body));
  const words = DomUtils.textContent(body)
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return {
    kind: "post",
    post: { file: name, title, date, url: canonical?.attribs.href ?? "", markdown, images, words },
  };
}
