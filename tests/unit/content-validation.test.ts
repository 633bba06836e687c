/**
 * Broken content that used to pass: each case stops the loader with the file, the field
 * and the reason (the build, `npm start` and `npm run check:content` all stop on the same error,
 * see tests/server/content-errors.test.ts); dates before 2000 and drafts are accepted.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadCatalogue, readContentFiles } from "../../catalogue/disk.ts";
import { MAX_CONTENT_FILE_BYTES } from "../../catalogue/limits.ts";
import { buildCatalogue, ContentError, type ContentFile } from "../../catalogue/load.ts";
import { nearestTag } from "../../catalogue/tags.ts";
import { fillTemplate } from "../../catalogue/template.ts";
import { FEED_SIZE, notesFeed, updatesFeed, writingsFeed } from "../../outputs/feeds.ts";
import { sitemapEntries } from "../../outputs/sitemap.ts";
import { writeLargeFile } from "../support/large-file.ts";

const FIXTURE_ROOT = join(import.meta.dirname, "../fixtures");
const files = readContentFiles(FIXTURE_ROOT);
const SITE_URL = "https://owner.example";

function edited(path: string, edit: (text: string) => string): ContentFile[] {
  const file = files.find((candidate) => candidate.path === path);
  if (!file) throw new Error(`no fixture file ${path}`);
  const text = edit(file.text);
  if (text === file.text) throw new Error(`the edit of ${path} changed nothing`);
  return files.map((candidate) => (candidate === file ? { path, text } : candidate));
}

function contentError(load: () => unknown): ContentError {
  try {
    load();
  } catch (error) {
    if (error instanceof ContentError) return error;
    throw error;
  }
  throw new Error("expected a ContentError");
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});
function copyOfFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), "content-validation-"));
  temps.push(dir);
  cpSync(FIXTURE_ROOT, dir, { recursive: true });
  return dir;
}

describe("images", () => {
  test("a missing local image stops the load with the file, the field and the path it looked for", () => {
    const root = copyOfFixture();
    rmSync(join(root, "public/images/work/acme.svg"));
    const error = contentError(() => loadCatalogue(root));
    expect(error.file).toBe("content/work/acme.md");
    expect(error.field).toBe("logo");
    expect(error.message).toBe(
      'content/work/acme.md: field "logo" names the image /images/work/acme.svg, but there is no file public/images/work/acme.svg',
    );
  });

  test("a missing image in a body stops the load too", () => {
    const root = copyOfFixture();
    writeFileSync(
      join(root, "content/write/fear.md"),
      "---\nname: Fear\ndate: 5/2/21\ntime: 3\n---\n![me](/images/me.jpg)\n",
    );
    const error = contentError(() => loadCatalogue(root));
    expect(error.message).toBe(
      'content/write/fear.md: field "body" names the image /images/me.jpg, but there is no file public/images/me.jpg',
    );
  });

  test("a remote image in a field or a body is refused, with what to do instead", () => {
    const field = contentError(() =>
      buildCatalogue(
        edited("content/work/acme.md", (text) =>
          text.replace('"/images/work/acme.svg"', '"https://cdn.example.com/acme.svg"'),
        ),
      ),
    );
    expect(field.message).toMatch(
      /^content\/work\/acme.md: field "logo" "https:\/\/cdn.example.com\/acme.svg" is a remote image: save the file under public\/images\//,
    );
    const root = copyOfFixture();
    writeFileSync(
      join(root, "content/write/fear.md"),
      "---\nname: Fear\ndate: 5/2/21\ntime: 3\n---\n![x](https://x.example/a.png)\n",
    );
    expect(contentError(() => loadCatalogue(root)).message).toBe(
      'content/write/fear.md: field "body" names the remote image https://x.example/a.png: save it under public/images/ and write its path (the site loads no image from other hosts)',
    );
  });
});

describe("files the site would not read", () => {
  test("a *.markdown file in a content folder is an error, not silently ignored", () => {
    const error = contentError(() =>
      buildCatalogue([...files, { path: "content/notes/dune.markdown", text: "---\nname: Dune\n---\n" }]),
    );
    expect(error.message).toBe(
      'content/notes/dune.markdown: has the unknown extension ".markdown": content/notes/ holds Markdown files named <slug>.md',
    );
  });

  test("it is read from disk like any other file (only hidden files are skipped)", () => {
    const root = copyOfFixture();
    writeFileSync(join(root, "content/write/draft.markdown"), "");
    writeFileSync(join(root, "content/write/.fear.md.swp"), "");
    const paths = readContentFiles(root).map((file) => file.path);
    expect(paths).toContain("content/write/draft.markdown");
    expect(paths.some((path) => path.endsWith(".swp"))).toBe(false);
    expect(contentError(() => loadCatalogue(root)).file).toBe("content/write/draft.markdown");
  });

  test("a file without extension, in a subfolder, in an unknown folder or loose in content/ is an error", () => {
    for (const [path, reason] of [
      ["content/notes/dune", /has no extension/],
      ["content/notes/2024/dune.md", /is in a subfolder/],
      ["content/note/dune.md", /is in content\/note\/, a folder the site does not read/],
      ["content/site.yml", /is not a file the site reads/],
    ] as const) {
      const error = contentError(() => buildCatalogue([...files, { path, text: "" }]));
      expect(error.file).toBe(path);
      expect(error.message).toMatch(reason);
    }
  });
});

describe("sizes every filesystem, build and server can take", () => {
  const acme = files.find((file) => file.path === "content/work/acme.md")?.text ?? "";

  test("a file name of more than 120 bytes is refused with its size; one of 120 loads", () => {
    const name = "a".repeat(121);
    const error = contentError(() => buildCatalogue([...files, { path: `content/work/${name}.md`, text: acme }]));
    expect(error.message).toBe(
      `content/work/${name}.md: has a file name of 121 bytes before its extension: at most 120 fit every filesystem`,
    );
    const accented = "é".repeat(61);
    expect(
      contentError(() => buildCatalogue([...files, { path: `content/notes/${accented}.md`, text: "" }])).message,
    ).toContain("has a file name of 122 bytes");
    const longest = "a".repeat(120);
    expect(
      buildCatalogue([...files, { path: `content/work/${longest}.md`, text: acme }]).work.map((item) => item.slug),
    ).toContain(longest);
  });

  test("a file of more than 512 kB is refused, counted in UTF-8 bytes; one of 512 kB loads", () => {
    const padded = (bytes: number) => `${acme}\n${"x".repeat(bytes - Buffer.byteLength(acme) - 1)}`;
    const largest = { path: "content/work/acme.md", text: padded(MAX_CONTENT_FILE_BYTES) };
    expect(buildCatalogue(files.map((file) => (file.path === largest.path ? largest : file))).work.length).toBe(
      buildCatalogue(files).work.length,
    );
    for (const text of [padded(MAX_CONTENT_FILE_BYTES + 1), `${acme}\n${"é".repeat(MAX_CONTENT_FILE_BYTES / 2)}`]) {
      const error = contentError(() =>
        buildCatalogue(files.map((file) => (file.path === largest.path ? { ...largest, text } : file))),
      );
      expect(error.message).toBe(
        "content/work/acme.md: is larger than 512 kB, the most a content file may hold: shorten it or split it",
      );
    }
  });

  test("a 20 MB note on disk is read only as far as the limit, and refused with the same line", () => {
    const root = copyOfFixture();
    const path = "content/notes/mans-search-for-meaning.md";
    const note = files.find((file) => file.path === path)?.text ?? "";
    writeLargeFile(join(root, path), 20 * 1024 * 1024, { head: note, piece: () => "A long paragraph. ".repeat(50) });
    const read = readContentFiles(root).find((file) => file.path === path);
    expect(read?.text.length).toBe(MAX_CONTENT_FILE_BYTES + 1);
    expect(contentError(() => loadCatalogue(root)).message).toBe(
      `${path}: is larger than 512 kB, the most a content file may hold: shorten it or split it`,
    );
  });
});

describe("tags come from the list in site.yaml", () => {
  test("a misspelt tag stops the load and the nearest declared tag is suggested", () => {
    const error = contentError(() =>
      buildCatalogue(
        edited("content/notes/atomic-habits.md", (text) => text.replace(/tags: \[.*\]/, 'tags: ["Psychologgy"]')),
      ),
    );
    expect(error.message).toBe(
      'content/notes/atomic-habits.md: field "tags" has the tag "Psychologgy", which is not in the tags of content/site.yaml: did you mean "Psychology"?',
    );
  });

  test("a tag far from every declared one asks for it to be declared first; writings, apps and jobs are checked too", () => {
    const error = contentError(() =>
      buildCatalogue(edited("content/write/be.md", (text) => text.replace("time: 1", 'time: 1\ntags: ["Astronomy"]'))),
    );
    expect(error.file).toBe("content/write/be.md");
    expect(error.message).toContain("a new tag must first be added to the tags list of content/site.yaml");
    for (const path of ["content/apps/alpha.md", "content/work/acme.md"]) {
      const bad = contentError(() =>
        buildCatalogue(edited(path, (text) => text.replace(/^tags: \[.*\]$/m, 'tags: ["Enginering"]'))),
      );
      expect(bad.file).toBe(path);
      expect(bad.message).toContain('did you mean "Engineering"?');
    }
  });

  test("declaring the tag in site.yaml makes it valid", () => {
    const withTag = edited("content/site.yaml", (text) =>
      text.replace('tags: ["Biography"', 'tags: ["Astronomy", "Biography"'),
    );
    const catalogue = buildCatalogue(
      withTag.map((file) =>
        file.path === "content/notes/germinal.md"
          ? { ...file, text: file.text.replace(/tags: \[.*\]/, 'tags: ["Astronomy"]') }
          : file,
      ),
    );
    expect(catalogue.tags).toContain("Astronomy");
  });

  test("the nearest tag ignores case and refuses to guess when nothing is close", () => {
    const declared = ["Psychology", "Philosophy", "Self-help"];
    expect(nearestTag("psychology", declared)).toBe("Psychology");
    expect(nearestTag("Selfhelp", declared)).toBe("Self-help");
    expect(nearestTag("Cooking", declared)).toBeNull();
  });
});

describe("dates", () => {
  test("a note read before 2000 is written M/D/YYYY; two-digit years stay 20YY", () => {
    const before2000 = buildCatalogue(
      edited("content/notes/germinal.md", (text) => text.replace(/^date: .*$/m, 'date: "1/1/1998"')),
    );
    expect(before2000.notes.find((book) => book.slug === "germinal")?.date).toBe("1998-01-01");
    const twoDigits = buildCatalogue(
      edited("content/notes/germinal.md", (text) => text.replace(/^date: .*$/m, 'date: "1/1/98"')),
    );
    expect(twoDigits.notes.find((book) => book.slug === "germinal")?.date).toBe("2098-01-01");
  });
});

describe("drafts", () => {
  const catalogue = buildCatalogue(files);

  test("a draft note, writing and issue are checked but stay out of every list, feed and the sitemap", () => {
    const drafts = ["/notes/a-draft-book", "/write/unfinished", "/updates/unsent-draft"];
    expect(files.map((file) => file.path)).toEqual(
      expect.arrayContaining(["content/notes/a-draft-book.md", "content/write/unfinished.md"]),
    );
    const listed = [...catalogue.all, ...catalogue.notes, ...catalogue.writings, ...catalogue.updates].map(
      (item) => item.path,
    );
    for (const path of drafts) expect(listed).not.toContain(path);
    const sitemap = sitemapEntries(catalogue).map((entry) => entry.path);
    for (const path of drafts) expect(sitemap).not.toContain(path);
    const feeds = [
      writingsFeed(catalogue, SITE_URL, FEED_SIZE),
      notesFeed(catalogue, SITE_URL, () => `${SITE_URL}/cover.png`, FEED_SIZE),
      updatesFeed(catalogue, SITE_URL, FEED_SIZE),
    ].join("\n");
    expect(feeds).not.toMatch(/a-draft-book|unfinished|unsent-draft/);
  });

  test("a draft is still checked: a mistake in it stops the load", () => {
    const error = contentError(() =>
      buildCatalogue(edited("content/notes/a-draft-book.md", (text) => text.replace('"6/1/25"', '"2/30/25"'))),
    );
    expect(error.file).toBe("content/notes/a-draft-book.md");
    expect(error.field).toBe("date");
  });

  test("draft must be true or false", () => {
    const error = contentError(() =>
      buildCatalogue(edited("content/write/unfinished.md", (text) => text.replace("draft: true", 'draft: "yes"'))),
    );
    expect(error.message).toBe('content/write/unfinished.md: field "draft" must be true or false');
  });

  test("a published note still needs its tags and rating; only a draft may leave them out", () => {
    const error = contentError(() =>
      buildCatalogue(edited("content/notes/a-draft-book.md", (text) => text.replace("draft: true\n", ""))),
    );
    expect(error.file).toBe("content/notes/a-draft-book.md");
    expect(error.field).toBe("tags");
    expect(error.problem).toBe("is required but missing");
  });
});

describe("the owner's sentence templates", () => {
  test("a note's description names its title, author and rating; a misspelt placeholder stops the load", () => {
    const catalogue = buildCatalogue(files);
    expect(
      fillTemplate(catalogue.site.sections.notes.noteDescription, {
        title: "Dune",
        author: "Frank Herbert",
        rating: "9",
      }),
    ).toBe("Fixture notes on Dune by Frank Herbert, scored 9/10.");
    const error = contentError(() =>
      buildCatalogue(
        edited("content/site.yaml", (text) => text.replace("Fixture notes on {title}", "Fixture notes on {titel}")),
      ),
    );
    expect(error.message).toBe(
      'content/site.yaml: field "sections.notes.noteDescription" has the placeholder {titel}, which is not one of {title}, {author}, {rating}',
    );
  });
});
