import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { unzipSync } from "fflate";
import { DomUtils, parseDocument } from "htmlparser2";
import { wordCount } from "../../catalogue/derive.ts";
import { sizeText } from "../../catalogue/limits.ts";
import { nestingProblem } from "../../catalogue/nesting.ts";
import { htmlToMarkdown } from "./html-markdown.ts";
import { MAX_IMPORT_ROWS, MAX_POST_BYTES, MAX_UNPACKED_BYTES } from "./limits.ts";

export type MediumFile = { name: string; html: string | null; size: number };

export type MediumPost = {
  file: string;
  title: string;
  date: string;
  url: string;
  markdown: string;
  /** Left as links for the owner to fetch. */
  images: string[];
  words: number;
};

export type MediumReading =
  | { kind: "post"; post: MediumPost }
  | { kind: "draft" | "reply"; file: string }
  | { kind: "unreadable"; file: string; reason: string };

const POST_FILE = /(?:^|\/)posts\/([^/]+\.html)$/;

function postBudget() {
  let posts = 0;
  let total = 0;
  return (size: number): boolean => {
    if (++posts > MAX_IMPORT_ROWS)
      throw new Error(`it holds more than ${MAX_IMPORT_ROWS.toLocaleString("en")} posts, the most one import takes`);
    if (size > MAX_POST_BYTES) return false;
    total += size;
    if (total > MAX_UNPACKED_BYTES)
      throw new Error(`its posts unpack to more than ${sizeText(MAX_UNPACKED_BYTES)}, the most one import takes`);
    return true;
  };
}

/** A zip is measured from its directory first and fflate unpacks no entry beyond its declared size: a zip bomb is refused unopened. */
export function mediumFiles(path: string): MediumFile[] {
  const fits = postBudget();
  if (statSync(path).isDirectory()) {
    const postsFolder = join(path, "posts");
    const folder = statSync(postsFolder, { throwIfNoEntry: false })?.isDirectory() ? postsFolder : path;
    return readdirSync(folder)
      .filter((name) => name.endsWith(".html"))
      .sort()
      .map((name) => {
        const file = join(folder, name);
        const { size } = statSync(file);
        return { name, size, html: fits(size) ? readFileSync(file, "utf8") : null };
      });
  }
  const zip = readFileSync(path);
  const sizes = new Map<string, number>();
  unzipSync(zip, {
    filter: (entry) => {
      if (POST_FILE.test(entry.name)) sizes.set(entry.name, entry.originalSize);
      return false;
    },
  });
  const unpacked = new Set([...sizes].filter(([, size]) => fits(size)).map(([name]) => name));
  const entries = unzipSync(zip, { filter: (entry) => unpacked.has(entry.name) });
  return [...sizes]
    .map(([name, size]): MediumFile => {
      const bytes = entries[name];
      return { name: basename(name), size, html: bytes ? new TextDecoder().decode(bytes) : null };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

type ElementTest = Parameters<typeof DomUtils.findOne>[0];

const hasClass = (className: string) => (element: { attribs: Record<string, string> }) =>
  (element.attribs.class ?? "").split(/\s+/).includes(className);

export const readingMinutes = (words: number) => Math.max(1, Math.round(words / 265));

/** A reply has no title of its own: Medium's export gives its body no title heading. */
export function readMediumPost({ name, html, size }: MediumFile): MediumReading {
  if (html === null) {
    const reason = `it is ${sizeText(size)} of HTML, more than one essay may come from (${sizeText(MAX_POST_BYTES)})`;
    return { kind: "unreadable", file: name, reason };
  }
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
  const words = wordCount(DomUtils.textContent(body));
  return {
    kind: "post",
    post: { file: name, title, date, url: canonical?.attribs.href ?? "", markdown, images, words },
  };
}
