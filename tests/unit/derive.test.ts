/** The fields derived once from an item's Markdown tokens (catalogue/derive.ts). */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { deriveBody, EXCERPT_WORDS, excerptOf } from "../../catalogue/derive.ts";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue } from "../../catalogue/load.ts";
import { deriveQuotes } from "../../catalogue/quotes.ts";

const BODY = [
  "# A heading",
  "",
  "One *two* three. <b>bold</b> Tom & Jerry's [a link](/notes/deep-work?x=1&y=2) and ![a cover](/images/a.png).",
  "",
  "- first item",
  "- second `code & more`",
  "",
  "```",
  "let a = b < c;",
  "```",
  "",
  "— 5, [far](https://example.com/far)",
].join("\n");

describe("deriveBody", () => {
  const body = deriveBody(BODY);

  test("the plain text keeps every word and drops the markup, one block per line", () => {
    expect(body.text).toBe(
      [
        "A heading",
        "One two three. bold Tom & Jerry's a link and .",
        "first item",
        "second code & more",
        "let a = b < c;",
        "— 5, far",
      ].join("\n"),
    );
  });

  test("a table gives one line per row and an image gives no text", () => {
    expect(deriveBody("| a | b |\n|---|---|\n| c | *d* |").text).toBe("a b\nc d");
    expect(deriveBody("Before ![alt text](/x.png) after").text).toBe("Before  after");
  });

  test("the word count counts words with a letter or digit, not punctuation", () => {
    expect(body.wordCount).toBe(body.text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length);
    expect(deriveBody("One, two — three!").wordCount).toBe(3);
    expect(deriveBody("").wordCount).toBe(0);
  });

  test("links and images list the targets as written, in order", () => {
    expect(body.links).toEqual(["/notes/deep-work?x=1&y=2", "https://example.com/far"]);
    expect(body.images).toEqual(["/images/a.png"]);
  });

  test("the HTML is marked's rendering and an empty body gives empty fields", () => {
    expect(body.html).toContain('<a href="/notes/deep-work?x=1&amp;y=2">a link</a>');
    expect(deriveBody("")).toEqual({
      markdown: "",
      html: "",
      text: "",
      wordCount: 0,
      excerpt: "",
      links: [],
      images: [],
    });
  });

  test(`the excerpt is the first ${EXCERPT_WORDS} words, with an ellipsis only when words are left out`, () => {
    expect(excerptOf("a  b\nc")).toBe("a b c");
    const long = Array.from({ length: EXCERPT_WORDS + 5 }, (_, index) => `w${index}`).join(" ");
    expect(excerptOf(long)).toBe(`${long.split(" ").slice(0, EXCERPT_WORDS).join(" ")}…`);
    expect(deriveBody(long).excerpt).toBe(excerptOf(long));
  });

  test("every catalogue item and page carries the fields its body gives", () => {
    const catalogue = buildCatalogue(readContentFiles(join(import.meta.dirname, "../fixtures")));
    for (const item of [...catalogue.all, catalogue.pages.now, catalogue.pages.about]) {
      // A note's HTML shows its quotes as figures (catalogue/quotes.ts); the rest is the body's.
      const { html, ...derived } = deriveBody(item.markdown);
      expect(item).toMatchObject(derived);
      expect(item.html).toBe(
        "category" in item && item.category === "book" ? deriveQuotes(item.markdown, item.slug).html : html,
      );
    }
    expect(catalogue.all.some((item) => item.wordCount > 0)).toBe(true);
  });
});
