/**
 * No owner-facing sentence in app/. Every sentence a page shows is either the owner's,
 * read from content/ (site.yaml, pages/), or one of the product's own messages — the form answers, and the
 * states and answers every owner's site shares (listed below). This test reads every module of
 * app/ and fails on any other sentence: a JSX text (with what it encloses) or a string literal of
 * at least MIN_WORDS words with sentence punctuation. A label ("Scroll to the top") is no sentence.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const APP = join(import.meta.dirname, "../../app");
const MIN_WORDS = 4;

/** The product's fixed messages (form checks and answers, the not-found page): its own words by definition. */
const DEFINED_MESSAGES = [
  "Thank you for your interest :)",
  "I'll email you back shortly :)",
  "Oops, looks like this page doesn't exist yet.",
  "Sorry, this email was already used.",
  "Sorry, email failed to send.",
];

/**
 * The product's own messages: answers and states of the site's machinery (an error screen, the
 * newsletter's confirm and unsubscribe steps, empty results, the figures of /stats), the same on
 * every owner's site and in no owner's voice. "…" stands for a value.
 */
const PRODUCT_MESSAGES = [
  "Sorry, this page could not be shown. Please try again in a moment.",
  "Please confirm with the link we just sent to your inbox.",
  "You signed up from this browser: once you confirm from the mail we sent, updates will reach your inbox. Thank you!",
  "Thank you! The next update will reach your inbox.",
  "The confirmation link is no longer valid: it was already used, or it is more than 7 days old. Sign up again and a new one will be sent to you.",
  "Press the button to start receiving updates by email.",
  "Please use the unsubscribe link of a recent update, exactly as it appears in the mail.",
  "No more updates will be sent to you. You can sign up again at any time.",
  "Press the button to stop receiving updates by email.",
  "No writings match your search.",
  "… book notes from … to …, in figures. Every note is in the notes list.",
  "Out of 10; the full bar is 10.",
  "A note has up to three tags.",
  "Find any book note, essay, newsletter issue, app or job by a few of its words.",
];

const ALLOWED = new Set([...DEFINED_MESSAGES, ...PRODUCT_MESSAGES]);

const normalise = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .replace(/(?:… ?)+/g, "… ")
    .replace(/ ([.,;!?]|:(?!\)))/g, "$1")
    .trim();

const wordCount = (text: string) => text.split(" ").filter((word) => /[A-Za-z]{2,}/.test(word)).length;
const isSentence = (text: string) => wordCount(text) >= MIN_WORDS && /[.!?](?:\s|$)|:\)/.test(text);

/** Elements that sit inside a line of text; any other element starts a text of its own. */
const INLINE = new Set(["a", "Link", "PageLink", "em", "strong", "b", "i", "span", "time", "code", "abbr", "small"]);

const tagOf = (node: ts.JsxElement | ts.JsxSelfClosingElement) =>
  (ts.isJsxElement(node) ? node.openingElement : node).tagName.getText();

/**
 * The lines of text a JSX element shows, with every value it interpolates as "…": its text and
 * its inline elements' run together; an element of another kind ends the line.
 */
function shownLines(node: ts.JsxElement | ts.JsxFragment): string[] {
  const lines: string[] = [""];
  const add = (text: string) => {
    lines[lines.length - 1] += text;
  };
  const walk = (child: ts.JsxChild) => {
    if (ts.isJsxText(child)) add(child.text);
    else if (ts.isJsxExpression(child)) {
      const inner = child.expression;
      add(inner && (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) ? inner.text : " … ");
    } else if ((ts.isJsxElement(child) || ts.isJsxSelfClosingElement(child)) && INLINE.has(tagOf(child))) {
      if (ts.isJsxElement(child)) child.children.forEach(walk);
      else add(" … ");
    } else lines.push("");
  };
  node.children.forEach(walk);
  return lines;
}

const hasWords = (child: ts.JsxChild) => ts.isJsxText(child) && /[A-Za-z]/.test(child.text);

/** JSX attributes whose strings are markup, not words. */
const MARKUP_ATTRIBUTES = new Set(["className", "d", "viewBox", "href", "to", "src", "rel", "type", "name", "id"]);

function sentencesIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isJsxAttribute(node) && MARKUP_ATTRIBUTES.has(node.name.getText())) return;
    if ((ts.isJsxElement(node) || ts.isJsxFragment(node)) && node.children.some(hasWords)) {
      found.push(...shownLines(node).map(normalise));
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found.push(normalise(node.text));
    } else if (ts.isTemplateExpression(node)) {
      found.push(normalise([node.head.text, ...node.templateSpans.map((span) => ` … ${span.literal.text}`)].join("")));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter(isSentence);
}

const modules = (readdirSync(APP, { recursive: true }) as string[])
  .filter((name) => /\.(tsx?|js)$/.test(name))
  .map((name) => join(APP, name));

describe("owner text lives in content/", () => {
  test("no module of app/ holds a sentence other than the owner's and the product's own messages", () => {
    const offending = modules.flatMap((file) =>
      sentencesIn(file)
        .filter((sentence) => !ALLOWED.has(sentence))
        .map((sentence) => `${relative(APP, file)}: ${sentence}`),
    );
    expect(offending).toEqual([]);
  });

  test("the check finds a sentence in JSX and in a string, and lets labels and the listed messages pass", () => {
    const probe = join(import.meta.dirname, "../fixtures/owner-text-probe.tsx");
    expect(sentencesIn(probe)).toEqual([
      "Notes on … by …, rated … out of 10.",
      "Sample content for this site; replace it with your own.",
      "Looking for something? Contact me.",
      "Thank you for your interest :)",
    ]);
  });

  test("every listed message is still in use, so the list cannot hide new owner text", () => {
    const used = new Set(modules.flatMap(sentencesIn));
    for (const message of PRODUCT_MESSAGES) expect(used, message).toContain(message);
  });
});
