/** The fields derived once from an item's Markdown tokens (catalogue/derive.ts). */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { deriveBody, EXCERPT_WORDS, excerptOf, hideSpoilers, renderWithAbsoluteLinks } from "../../catalogue/derive.ts";
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

describe("spoilers", () => {
  const REVIEW = [
    "Before the turn.",
    "",
    "[spoiler]",
    "The keeper *is* the [light](/notes/deep-work).",
    "",
    "Twice over.",
    "[/spoiler]",
    "",
    "After the turn.",
  ].join("\n");
  const body = deriveBody(REVIEW);

  test("a spoiler is a closed <details> whose summary says Spoiler, holding its paragraphs", () => {
    expect(body.html).toBe(
      [
        "<p>Before the turn.</p>",
        "<details><summary>Spoiler</summary>",
        '<p>The keeper <em>is</em> the <a href="/notes/deep-work">light</a>.</p>',
        "<p>Twice over.</p>",
        "</details>",
        "<p>After the turn.</p>",
        "",
      ].join("\n"),
    );
  });

  test("its words stay out of the text, the excerpt and the word count; its links are still checked", () => {
    expect(body.text).toBe("Before the turn.\nAfter the turn.");
    expect(body.excerpt).toBe("Before the turn. After the turn.");
    expect(body.wordCount).toBe(6);
    expect(body.links).toEqual(["/notes/deep-work"]);
  });

  test("a spoiler on one line, in a list or in a blockquote is a spoiler too", () => {
    const html = deriveBody(
      "[spoiler]On one line.[/spoiler]\n\n- [spoiler]In a list.[/spoiler]\n\n> [spoiler]Quoted.[/spoiler]",
    );
    expect(html.text).toBe("");
    expect(html.html.match(/<details><summary>Spoiler<\/summary>/g)).toHaveLength(3);
  });

  test("a spoiler inside a paragraph, as Goodreads writes one, is set apart as a block between the paragraph's two halves", () => {
    const inline = deriveBody("It ends [spoiler]with the *flood*.[/spoiler] Read it.");
    expect(inline.html).toBe(
      "<p>It ends </p>\n<details><summary>Spoiler</summary>\n<p>with the <em>flood</em>.</p>\n</details>\n<p> Read it.</p>\n",
    );
    expect(inline.text).toBe("It ends\nRead it.");
  });

  test("feeds and mail show a mark in the spoiler's place, never its words", () => {
    const feed = renderWithAbsoluteLinks(REVIEW, "https://site.example");
    expect(feed).toBe("<p>Before the turn.</p>\n<p><em>(spoiler hidden)</em></p>\n<p>After the turn.</p>\n");
    expect(hideSpoilers(REVIEW)).toBe("Before the turn.\n\n(spoiler hidden)\n\nAfter the turn.");
  });

  test("a mark never closed, or never opened, stays in the text, and the content file stops with one line naming it", () => {
    const files = readContentFiles(join(import.meta.dirname, "../fixtures"));
    const withBody = (body: string) =>
      files.map((file) =>
        file.path === "content/notes/germinal.md" ? { ...file, text: `${file.text}\n${body}\n` } : file,
      );
    for (const stray of ["It ends [spoiler]badly.", "[spoiler]\nNever closed.", "Closed[/spoiler] alone."]) {
      expect(deriveBody(stray).text).toMatch(/\[\/?spoiler\]/);
      expect(() => buildCatalogue(withBody(stray)), stray).toThrow(
        "content/notes/germinal.md: has a [spoiler] mark never closed or a [/spoiler] never opened: a spoiler is written [spoiler]…[/spoiler]",
      );
    }
    expect(() => buildCatalogue(withBody(REVIEW))).not.toThrow();
  });
});
