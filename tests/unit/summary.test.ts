/** The content summary behind `npm run check:content`, on the fixture tree, and the script itself. */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue, type ContentFile } from "../../catalogue/load.ts";
import { summarizeCatalogue } from "../../catalogue/summary.ts";

const PROJECT_ROOT = join(import.meta.dirname, "../..");
const FIXTURE_ROOT = join(import.meta.dirname, "../fixtures");
const files = readContentFiles(FIXTURE_ROOT);
const catalogue = buildCatalogue(files);

/** The local images the fixture names, all present under tests/fixtures/public. */
const FIXTURE_IMAGES = [
  "/images/apps/alpha.svg",
  "/images/apps/alpha-1.svg",
  "/images/apps/alpha-2.svg",
  "/images/apps/beta.svg",
  "/images/work/acme.svg",
  "/images/work/globex.svg",
  "/images/notes/mans-search-for-meaning.svg",
  "/images/write/fear.svg",
];

function withBody(path: string, body: string): ContentFile[] {
  return files.map((file) => (file.path === path ? { path, text: `${file.text.trimEnd()}\n${body}\n` } : file));
}

describe("summarizeCatalogue", () => {
  test("counts each kind of item", () => {
    const summary = summarizeCatalogue(catalogue, () => true);
    expect(summary.counts).toEqual({ notes: 11, writings: 3, apps: 2, jobs: 2 });
    expect(summary.shelves).toEqual({ reading: 1, want: 1, didNotFinish: 1 });
    expect(summary.quotes).toBe(3);
  });

  test("counts notes per tag, most used first, ties by name", () => {
    expect(summarizeCatalogue(catalogue, () => true).notesPerTag).toEqual([
      { tag: "Fiction", count: 4 },
      { tag: "Philosophy", count: 3 },
      { tag: "Psychology", count: 3 },
      { tag: "Self-help", count: 3 },
      { tag: "Spirituality", count: 2 },
      { tag: "Biography", count: 1 },
      { tag: "History", count: 1 },
      { tag: "Productivity", count: 1 },
    ]);
  });

  test("counts notes per year, oldest first", () => {
    expect(summarizeCatalogue(catalogue, () => true).notesPerYear).toEqual(
      [
        ["2014", 1],
        ["2015", 1],
        ["2016", 2],
        ["2017", 1],
        ["2018", 1],
        ["2019", 1],
        ["2022", 1],
        ["2024", 3],
      ].map(([year, count]) => ({ year, count })),
    );
  });

  test("counts the notes without a review and how many of them are dated before 2020", () => {
    // all-about-love (2015), the-four-agreements-2 (2022), deep-work (2024), and the-glass-orchard-2
    // (2024), whose body holds only a quote.
    expect(summarizeCatalogue(catalogue, () => true).withoutReview).toEqual({ count: 4, before2020: 1 });
  });

  test("counts the podcast and video lists", () => {
    const summary = summarizeCatalogue(catalogue, () => true);
    expect(summary.podcasts).toBe(2);
    expect(summary.videos).toBe(2);
  });

  test("asks about every local image field, never about a generated cover", () => {
    const asked: string[] = [];
    const summary = summarizeCatalogue(catalogue, (path) => {
      asked.push(path);
      return true;
    });
    expect(summary.broken).toEqual([]);
    expect([...asked].sort()).toEqual([...FIXTURE_IMAGES].sort());
  });

  test("reports a missing image with its file and field", () => {
    const missing = new Set(["/images/apps/alpha-2.svg", "/images/notes/mans-search-for-meaning.svg"]);
    const summary = summarizeCatalogue(catalogue, (path) => !missing.has(path));
    expect(summary.broken).toEqual([
      {
        file: "content/apps/alpha.md",
        field: "screenshots",
        target: "/images/apps/alpha-2.svg",
        problem: "missing image",
      },
      {
        file: "content/notes/mans-search-for-meaning.md",
        field: "photo",
        target: "/images/notes/mans-search-for-meaning.svg",
        problem: "missing image",
      },
    ]);
  });

  test("reports a body link to a site item that does not exist, and a missing body image", () => {
    const edited = buildCatalogue(
      withBody(
        "content/write/be.md",
        [
          "[gone](/notes/no-such-book) [renamed](/apps/gamma) [old job](/work/initech) [draft](/write/draft)",
          "[ok](/notes/atomic-habits) [ok](/write/fear/) [ok](/notes) [ok](/notes/deep-work#review) [ok](/apps/alpha?x=1)",
          "[external](https://example.com/notes/nope) [home](/) [now](/now)",
          "![photo](/images/write/missing.png) ![remote](https://example.com/x.png)",
        ].join("\n\n"),
      ),
    );
    const summary = summarizeCatalogue(edited, (path) => path !== "/images/write/missing.png");
    expect(summary.broken).toEqual([
      { file: "content/write/be.md", field: "body", target: "/notes/no-such-book", problem: "no such item" },
      { file: "content/write/be.md", field: "body", target: "/apps/gamma", problem: "no such item" },
      { file: "content/write/be.md", field: "body", target: "/work/initech", problem: "no such item" },
      { file: "content/write/be.md", field: "body", target: "/write/draft", problem: "no such item" },
      { file: "content/write/be.md", field: "body", target: "/images/write/missing.png", problem: "missing image" },
      { file: "content/write/be.md", field: "body", target: "https://example.com/x.png", problem: "remote image" },
    ]);
  });

  test("checks the links in the now and about pages too", () => {
    const edited = buildCatalogue(withBody("content/pages/about.md", "See [the old app](/apps/beta-old)."));
    expect(summarizeCatalogue(edited, () => true).broken).toEqual([
      { file: "content/pages/about.md", field: "body", target: "/apps/beta-old", problem: "no such item" },
    ]);
  });
});

describe("npm run check:content", () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  function copyOfFixture(): string {
    const dir = mkdtempSync(join(tmpdir(), "check-content-"));
    temps.push(dir);
    cpSync(FIXTURE_ROOT, dir, { recursive: true });
    return dir;
  }

  const run = (root: string) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/check-content.ts", "--root", root], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
    });

  test("prints the summary and exits 0 on valid content with no broken reference", () => {
    const result = run(copyOfFixture());
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("11 notes, 3 writings, 2 apps, 2 jobs");
    expect(result.stdout).toMatch(/Philosophy\s+3/);
    expect(result.stdout).toContain("Notes without a review: 4 (1 dated before 2020)");
    expect(result.stdout).toContain("Broken references: none");
  });

  test("exits 1 and names the reference when an image is missing or a link leads nowhere", () => {
    const root = copyOfFixture();
    rmSync(join(root, "public/images/apps/beta.svg"));
    const about = join(root, "content/pages/about.md");
    writeFileSync(about, `${readFileSync(about, "utf8")}\n[Gone](/notes/gone)\n`);
    const result = run(root);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'content/apps/beta.md: field "logo" names the image /images/apps/beta.svg, but there is no file public/images/apps/beta.svg',
    );
    expect(result.stdout).toContain(
      'content/pages/about.md: field "body" links to /notes/gone, but no published item has this path',
    );
  });

  test("an owner's content is not compared with the shipped sample: no sample facts, no codes", () => {
    const root = copyOfFixture();
    const result = run(root);
    expect(result.status).toBe(0);
    expect(result.stdout).not.toMatch(/sample|SPEC|✗|\b(DA|R)\d+\b/);
  });

  test("check:sample checks the shipped sample's facts in plain words and exits 1 when one does not hold", () => {
    const root = copyOfFixture();
    const strict = spawnSync(process.execPath, ["--import", "tsx", "tests/sample-facts.ts"], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      env: { ...process.env, CONTENT_ROOT: root },
    });
    expect(strict.status).toBe(1);
    expect(strict.stdout).toMatch(/✗ about 270 book notes \(250 to 290\) — \d+ notes/);
    expect(strict.stdout).toMatch(/✗ the tags include the sample's 19 tags — no tag Business, /);
    expect(strict.stdout).toMatch(/✗ the sample's book notes, a re-read among them — no note sapiens, zero-to-one, /);
    expect(strict.stdout).toMatch(/✗ the sample's four apps, one of them current — the apps are /);
    expect(strict.stdout).toContain(
      "✗ 15 or more podcast episodes and 15 or more videos — 2 podcast episodes; 2 videos",
    );
    expect(strict.stdout).toMatch(/✗ Now and About last updated 6\/6\/25/);
    expect(strict.stdout).toMatch(/\d+ of \d+ facts about the shipped sample do not hold\./);
    expect(strict.stdout).not.toMatch(/SPEC|§|\b(DA|R)\d+\b/);
  });

  test("exits 1 with the loader's message on an invalid file", () => {
    const root = copyOfFixture();
    const file = join(root, "content/notes/germinal.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("rating: 9.6", "rating: 11"));
    const result = run(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'Content error: content/notes/germinal.md: field "rating" must be between 0 and 10',
    );
  });
});
