/**
 * Content is data, never code: every body renders through one sanitizer (catalogue/safe-html.ts),
 * imported HTML becomes Markdown in which nothing runs (scripts/import/html-markdown.ts), each
 * layer holding on its own; and a body nested deeper than the parsers' stack is refused with one
 * line (catalogue/nesting.ts).
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { deriveBody, markdown, renderWithAbsoluteLinks } from "../../catalogue/derive.ts";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue, ContentError, type ContentFile } from "../../catalogue/load.ts";
import { MAX_NESTING_DEPTH, nestingProblem } from "../../catalogue/nesting.ts";
import { deriveQuotes } from "../../catalogue/quotes.ts";
import { safeHtml } from "../../catalogue/safe-html.ts";
import { readGoodreads } from "../../scripts/import/goodreads.ts";
import { htmlToMarkdown, reviewToMarkdown } from "../../scripts/import/html-markdown.ts";
import { readMediumPost } from "../../scripts/import/medium.ts";
import { HOSTILE_HTML, HOSTILE_MARKDOWN, runningParts } from "../support/hostile-html.ts";

const SITE = "https://owner.example";

describe("the sanitizer every body passes through", () => {
  test.each(HOSTILE_MARKDOWN)("nothing of %s runs in a page, a quote or a feed", (payload) => {
    const body = `${payload}\n\n> ${payload}\n\n— p. 4\n`;
    expect(runningParts(deriveBody(body).html)).toEqual([]);
    const { html, quotes } = deriveQuotes(body, "hostile");
    expect(runningParts(html)).toEqual([]);
    expect(runningParts(quotes.map((quote) => quote.html).join(""))).toEqual([]);
    expect(runningParts(renderWithAbsoluteLinks(body, SITE))).toEqual([]);
  });

  test("the checks find what the sanitizer removes: without it, every payload but escaped text would run", () => {
    const harmless = HOSTILE_MARKDOWN.filter((payload) => runningParts(markdown.parse(payload) as string).length === 0);
    expect(harmless).toEqual([
      "&lt;script&gt;alert(document.domain)&lt;/script&gt;",
      '&lt;meta http-equiv="refresh" content="0;url=https://evil.example/"&gt;',
    ]);
  });

  test("what an owner writes is kept: emphasis, links, lists, code, headings, tables, images and the allowed tags", () => {
    const body = [
      "## Heading",
      '*em* **strong** ~~gone~~ `code` [link](https://example.com/a "title") [mail](mailto:me@example.com) [page](/notes/x)',
      "![cover](/images/a.png)",
      "- one\n- two\n\n1. first\n2. second",
      "```js\nlet a = 1 < 2;\n```",
      "| a | b |\n|:-|-:|\n| c | d |",
      "> a quote without attribution",
      'H<sub>2</sub>O, x<sup>2</sup>, <abbr title="HyperText">HTML</abbr>, <kbd>Ctrl</kbd>, <mark>marked</mark>',
      "<details><summary>More</summary>\n\nHidden *text*.\n\n</details>",
    ].join("\n\n");
    const html = deriveBody(body).html;
    for (const kept of [
      "<h2>Heading</h2>",
      "<em>em</em>",
      "<strong>strong</strong>",
      "<del>gone</del>",
      "<code>code</code>",
      '<a href="https://example.com/a" title="title">link</a>',
      '<a href="mailto:me@example.com">mail</a>',
      '<a href="/notes/x">page</a>',
      '<img src="/images/a.png" alt="cover" />',
      "<li>one</li>",
      "<ol>",
      '<code class="language-js">let a = 1 &lt; 2;',
      '<th align="left">a</th>',
      "<blockquote>",
      "<sub>2</sub>",
      "<sup>2</sup>",
      '<abbr title="HyperText">HTML</abbr>',
      "<kbd>Ctrl</kbd>",
      "<mark>marked</mark>",
      "<details><summary>More</summary>",
      "<em>text</em>",
    ]) {
      expect(html).toContain(kept);
    }
  });

  test("a quote keeps its figure and anchor; an id or class an owner writes does not pass", () => {
    expect(deriveQuotes("> Words.\n\n— p. 4", "book").html).toContain('<figure id="quote-1" class="quote">');
    expect(safeHtml('<figure id="main" class="quote big" onclick="x()">f</figure><p id="quote-1">p</p>')).toBe(
      '<figure class="quote">f</figure><p>p</p>',
    );
  });

  test("an embed is no raw HTML: an iframe of the players' own host is removed too", () => {
    expect(safeHtml('<iframe src="https://www.youtube-nocookie.com/embed/abc"></iframe>')).toBe("");
  });
});

describe("imported HTML becomes Markdown in which nothing runs", () => {
  test.each(HOSTILE_HTML)("%s: the Markdown rendered without the sanitizer runs nothing", (payload) => {
    for (const converted of [reviewToMarkdown(payload).markdown, htmlToMarkdown(`<p>${payload}</p>`).markdown]) {
      expect(runningParts(markdown.parse(converted) as string)).toEqual([]);
      expect(runningParts(deriveBody(converted).html)).toEqual([]);
    }
  });

  test("text that reads as a tag is escaped, and shows as the text it was", () => {
    const { markdown: review } = reviewToMarkdown(
      "&lt;script&gt;alert(document.domain)&lt;/script&gt; &amp;lt;b&amp;gt;",
    );
    expect(review).toBe("\\<script>alert(document.domain)\\</script> \\&lt;b\\&gt;");
    expect(markdown.parse(review)).toBe(
      "<p>&lt;script&gt;alert(document.domain)&lt;/script&gt; &amp;lt;b&amp;gt;</p>\n",
    );
  });

  test("a link of another scheme keeps its text alone; an image from data: is left out", () => {
    const { markdown: converted, images } = htmlToMarkdown(
      '<p><a href="javascript:alert(1)">unsafe</a> <a href="https://example.com/">safe</a> <img src="data:image/png;base64,AA" alt="inline"></p>',
    );
    expect(converted).toBe("unsafe [safe](https://example.com/)");
    expect(images).toEqual([]);
  });

  test("code holding a fence cannot close its own block early", () => {
    const { markdown: converted } = htmlToMarkdown("<pre>```<br>&lt;script&gt;alert(1)&lt;/script&gt;</pre>");
    expect(markdown.parse(converted)).toBe("<pre><code>```\n&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n");
  });
});

describe("how deep a body may nest", () => {
  const deep = {
    blockquotes: `${">".repeat(2000)} deep`,
    "spaced blockquotes": `${"> ".repeat(2000)}deep`,
    "HTML blockquotes": `${"<blockquote>".repeat(2000)}deep`,
    lists: `${"- ".repeat(2000)}deep`,
  };

  test.each(Object.entries(deep))("2,000 nested %s are refused with the depth and the limit", (_kind, body) => {
    expect(nestingProblem(body)).toBe(
      `nests blockquotes, lists or HTML elements 2000 levels deep; at most ${MAX_NESTING_DEPTH} are allowed`,
    );
  });

  test("what an owner writes is far within the limit: nested lists and quotes, code, autolinks, HTML", () => {
    const body = [
      "> - a quoted list\n>   - nested",
      "- one\n  - two\n    - three",
      `\`\`\`\n${"> ".repeat(300)}\n\`\`\``,
      "<https://example.com/a> <me@example.com> ".repeat(200),
      "<details><summary>s</summary><p><em>x</em></p></details>",
    ].join("\n\n");
    expect(nestingProblem(body)).toBeNull();
    expect(nestingProblem(`${"> ".repeat(MAX_NESTING_DEPTH)}x`)).toBeNull();
    expect(nestingProblem(`${"> ".repeat(MAX_NESTING_DEPTH + 1)}x`)).not.toBeNull();
  });

  const FIXTURE_FILES = readContentFiles(join(import.meta.dirname, "../fixtures"));
  const withNote = (body: string): ContentFile[] => [
    ...FIXTURE_FILES,
    {
      path: "content/notes/deep-waters.md",
      text: `---\nname: "Deep Waters"\nauthor: "Ada Brook"\ndate: "3/14/24"\ntags: ["Fiction"]\ntime: 20\nrating: 7\n---\n${body}\n`,
    },
  ];
  const loadError = (files: ContentFile[]) => {
    try {
      buildCatalogue(files);
    } catch (error) {
      if (error instanceof ContentError) return error.message;
      throw error;
    }
    return null;
  };

  test("loading the content names the file, as any content mistake", () => {
    expect(loadError(withNote(deep.blockquotes))).toBe(
      `content/notes/deep-waters.md: nests blockquotes, lists or HTML elements 2000 levels deep; at most ${MAX_NESTING_DEPTH} are allowed`,
    );
    expect(loadError(withNote("A *calm* body."))).toBeNull();
  });

  test("emphasis nested past what the parser's stack holds is refused the same way", () => {
    expect(loadError(withNote(`${"*".repeat(10_000)}x${"*".repeat(10_000)}`))).toBe(
      "content/notes/deep-waters.md: nests emphasis too deeply to be read",
    );
  });

  test("an import names the row or the post, and reads the others", async () => {
    const header =
      "Book Id,Title,Author,My Rating,Date Read,Date Added,Bookshelves,Exclusive Shelf,My Review\n" +
      `1,Deep Review,Ada Brook,4,2024/01/02,2024/01/01,,read,${"<blockquote>".repeat(2000)}x\n` +
      "2,Calm Review,Ada Brook,4,2024/01/02,2024/01/01,,read,Calm.\n";
    const books = await readGoodreads(header, 2);
    expect(books.readings.map((reading) => reading.title)).toEqual(["Calm Review"]);
    expect(books.skipped).toEqual([
      {
        line: 2,
        what: '"Deep Review"',
        reason: `unreadable: My Review nests blockquotes, lists or HTML elements 2000 levels deep; at most ${MAX_NESTING_DEPTH} are allowed`,
      },
    ]);
    expect(
      readMediumPost({
        name: "2024-01-01_Deep.html",
        html: `<html><body>${"<div>".repeat(2000)}</body></html>`,
        size: 0,
      }),
    ).toEqual({
      kind: "unreadable",
      file: "2024-01-01_Deep.html",
      reason: `it nests blockquotes, lists or HTML elements 2002 levels deep; at most ${MAX_NESTING_DEPTH} are allowed`,
    });
  });
});
