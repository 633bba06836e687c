import { describe, expect, test } from "vitest";
import { REPLY_LIMITS } from "../../rules/forms.ts";
import { endpointOf, linksTo, mentionOf } from "../../services/webmention/page.ts";
import { checkWebmention } from "../../services/webmention/receive.ts";
import { outsideLinks } from "../../services/webmention/send.ts";

const SITE = "https://site.example";
const TARGET = `${SITE}/write/fear`;
const PAGE = "https://blog.example/posts/on-fear";

describe("whether a page links to the target", () => {
  test("an href resolving to the target counts, relative or absolute, its fragment aside", () => {
    expect(linksTo(`<a href="${TARGET}">fear</a>`, PAGE, TARGET)).toBe(true);
    expect(linksTo(`<a href="${TARGET}#part-2">fear</a>`, PAGE, TARGET)).toBe(true);
    expect(linksTo(`<a href="//site.example/write/fear">fear</a>`, PAGE, TARGET)).toBe(true);
    expect(linksTo(`<a href="../write/fear">fear</a>`, `${SITE}/notes/x`, TARGET)).toBe(true);
  });

  test("the address in the text, another page of the site or an image's src do not", () => {
    expect(linksTo(`<p>${TARGET}</p>`, PAGE, TARGET)).toBe(false);
    expect(linksTo(`<a href="${SITE}/write/fearless">x</a>`, PAGE, TARGET)).toBe(false);
    expect(linksTo(`<img src="${TARGET}">`, PAGE, TARGET)).toBe(false);
  });
});

describe("the reply a page makes", () => {
  test("is its h-entry's author card, content as text and published date", () => {
    const mention = mentionOf(
      `<article class="h-entry">
        <a class="p-author h-card" href="https://ann.example/">Ann Sample</a>
        <time class="dt-published" datetime="2026-03-04T05:06:07Z">March</time>
        <div class="e-content"><p>I <b>agree</b> with <a href="${TARGET}">this</a>.</p></div>
      </article>`,
      PAGE,
    );
    expect(mention).toEqual({
      author: { name: "Ann Sample", url: "https://ann.example/" },
      text: "I agree with this.",
      writtenAt: new Date("2026-03-04T05:06:07Z"),
    });
  });

  test("without an h-entry, is the page's title from the page's host", () => {
    expect(mentionOf("<title> On  fear </title><p>hello</p>", PAGE)).toEqual({
      author: { name: "blog.example" },
      text: "On fear",
    });
  });

  test("of a page with nothing in its body is its address from its host", () => {
    expect(mentionOf("", PAGE)).toEqual({ author: { name: "blog.example" }, text: PAGE });
  });

  test("takes the entry's name when it has no content, and a plain-text author", () => {
    const mention = mentionOf(
      `<div class="h-entry"><span class="p-name">A short note</span><span class="p-author">Bo</span></div>`,
      PAGE,
    );
    expect(mention.text).toBe("A short note");
    expect(mention.author).toEqual({ name: "Bo" });
  });

  test("is cut to the store's bounds, on one line, and an author URL that is not a web address is left out", () => {
    const mention = mentionOf(
      `<div class="h-entry"><a class="p-author h-card u-url" href="javascript:alert(1)">${"N\u0007".repeat(200)}</a>
       <div class="e-content">${"word ".repeat(5000)}</div></div>`,
      PAGE,
    );
    expect(mention.author.name.length).toBe(REPLY_LIMITS.nameMaxLength);
    expect(mention.author.name.includes("\u0007")).toBe(false);
    expect(mention.author.url).toBeUndefined();
    expect(mention.text.length).toBe(REPLY_LIMITS.textMaxLength);
    expect(mention.text.endsWith("…")).toBe(true);
  });

  test("an unreadable published date is left out", () => {
    const mention = mentionOf(
      `<div class="h-entry"><p class="e-content">Hi</p><time class="dt-published">soon</time></div>`,
      PAGE,
    );
    expect(mention.writtenAt).toBeUndefined();
  });
});

describe("where a page takes webmentions", () => {
  test("the Link header comes first, resolved against the page", () => {
    const html = `<link rel="webmention" href="https://other.example/wm">`;
    expect(endpointOf('</mentions?x=1>; rel="webmention"', html, PAGE)).toBe("https://blog.example/mentions?x=1");
    expect(endpointOf('<https://a.example/>; rel="other", </wm>; rel="webmention me"', undefined, PAGE)).toBe(
      "https://blog.example/wm",
    );
  });

  test("then the first <link> or <a> with rel webmention in document order", () => {
    expect(endpointOf(null, `<a rel="webmention" href="/a">a</a><link rel="webmention" href="/l">`, PAGE)).toBe(
      "https://blog.example/a",
    );
    expect(endpointOf('<https://a.example/>; rel="other"', `<link rel="webmention" href="wm.php">`, PAGE)).toBe(
      "https://blog.example/posts/wm.php",
    );
  });

  test("a malformed Link header is passed over for the HTML", () => {
    for (const header of ["nonsense", "<", ";;;", "<https://a.example/>"]) {
      expect(endpointOf(header, `<link rel="webmention" href="/wm">`, PAGE)).toBe("https://blog.example/wm");
    }
  });

  test("an empty href is the page itself, and no rel means no endpoint", () => {
    expect(endpointOf(null, `<link rel="webmention" href="">`, PAGE)).toBe(PAGE);
    expect(endpointOf(null, `<link rel="stylesheet" href="/s.css"><a href="/wm">webmention</a>`, PAGE)).toBeUndefined();
    expect(endpointOf(null, undefined, PAGE)).toBeUndefined();
  });
});

describe("the pages an essay tells", () => {
  test("are its links to other sites over http(s), each once, without fragments", () => {
    const links = [
      "https://a.example/x#one",
      "https://a.example/x#two",
      "/notes/own",
      `${SITE}/write/other`,
      "mailto:someone@example.com",
      "http://b.example/",
      "not a url ::",
    ];
    expect(outsideLinks({ url: TARGET, links, html: "" }, SITE)).toEqual(["https://a.example/x", "http://b.example/"]);
  });
});

describe("a webmention's two addresses", () => {
  const check = (source: string, target: string) => checkWebmention({ source, target }, SITE);

  test("a page elsewhere mentioning an essay or a book note of the site is accepted", () => {
    expect(check(PAGE, TARGET)).toEqual({ ok: true, source: PAGE, target: TARGET });
    expect(check(PAGE, `${SITE}/notes/a-book#top`)).toEqual({ ok: true, source: PAGE, target: `${SITE}/notes/a-book` });
  });

  test.each([
    ["", TARGET, "The source is missing: send source and target, form-encoded."],
    [PAGE, "", "The target is missing: send source and target, form-encoded."],
    ["not a url", TARGET, "The source must be an http or https address."],
    ["ftp://blog.example/x", TARGET, "The source must be an http or https address."],
    [`https://blog.example/${"a".repeat(2000)}`, TARGET, "The source is longer than 2000 characters."],
    [PAGE, "https://elsewhere.example/write/fear", "The target is not a page of this site."],
    [PAGE, `${SITE}/about`, "The target is not an essay or a book note of this site."],
    [PAGE, `${SITE}/write/`, "The target is not an essay or a book note of this site."],
    [TARGET, `${TARGET}#again`, "The source and the target must be different pages."],
  ])("%s → %s is refused", (source, target, error) => {
    expect(check(source, target)).toEqual({ ok: false, error });
  });
});
