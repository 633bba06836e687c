/**
 * What an import reads and writes is bounded, on copies of the fixture site in temporary folders:
 * a file too large, too many rows, a review too large for a note or a zip bomb is refused with one
 * line naming the file or the row, and nothing is written; the dry run names every failure the
 * write would meet; and the write puts all its files in place or none.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { loadCatalogue } from "../../catalogue/disk.ts";
import { importCommand } from "../../scripts/import/command.ts";
import { GOODREADS_COLUMNS } from "../../scripts/import/goodreads.ts";
import { NotWritten, writeAllOrNone } from "../../scripts/import/write-all.ts";
import { writeLargeFile } from "../support/large-file.ts";
import { filesUnder } from "../support/project-copy.ts";
import { makeTempDir } from "./helpers.ts";

const FIXTURES = join(import.meta.dirname, "../fixtures");
const MB = 1024 * 1024;

// Files of tens of megabytes are written and read: seconds on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

let temp: ReturnType<typeof makeTempDir>;
let root: string;
beforeEach(() => {
  temp = makeTempDir("import-limits-");
  root = join(temp.path, "site");
  for (const folder of ["content", "public"]) cpSync(join(FIXTURES, folder), join(root, folder), { recursive: true });
});
afterEach(() => temp.remove());

const snapshot = () => filesUnder(root);

async function run(...args: string[]): Promise<{ status: number; output: string }> {
  let output = "";
  const print = (text: string) => {
    output += `${text}\n`;
  };
  const status = await importCommand([...args, "--root", root], print, print);
  return { status, output };
}

/** One Goodreads row: a read book, rated and on a shelf that is a tag of the fixture site. */
function goodreadsRow(fields: { title: string; author?: string; review?: string }): string {
  const cells: Record<string, string> = {
    Title: fields.title,
    Author: fields.author ?? "Maren Holt",
    "My Rating": "4",
    "Date Read": "2021/03/14",
    "Date Added": "2021/03/01",
    Bookshelves: "fiction",
    "Exclusive Shelf": "read",
    "My Review": fields.review ?? "",
  };
  return `${GOODREADS_COLUMNS.map((column) => `"${(cells[column] ?? "").replaceAll('"', '""')}"`).join(",")}\n`;
}
const HEADER = `${GOODREADS_COLUMNS.join(",")}\n`;

const lines = (output: string) => output.trimEnd().split("\n");

describe("an export file beyond the limits", () => {
  test("a 50 MB CSV is refused by its size in one line, before it is read, and nothing is written", async () => {
    const csv = join(temp.path, "goodreads_library_export.csv");
    writeLargeFile(csv, 50 * MB, { head: HEADER, piece: (index) => goodreadsRow({ title: `Book ${index}` }) });
    const before = snapshot();
    const { status, output } = await run("goodreads", csv, "--write");
    expect(status).toBe(1);
    expect(lines(output)).toEqual([
      `${csv} is 50.0 MB, more than one import reads (32.0 MB): split it and import the parts one after another; each skips what is already there. Nothing was written.`,
    ]);
    expect(snapshot()).toEqual(before);
  });

  test("a file of more rows than one import takes stops at the first row too many, named by its line", async () => {
    const csv = join(temp.path, "many.csv");
    writeFileSync(
      csv,
      HEADER + Array.from({ length: 10_001 }, (_, index) => goodreadsRow({ title: `B${index}` })).join(""),
    );
    const before = snapshot();
    const { status, output } = await run("goodreads", csv, "--write");
    expect(status).toBe(1);
    expect(lines(output)).toEqual([
      `${csv}: line 10002: the file has more than 10,000 rows, the most one import takes; split it and import the parts one after another. Nothing was written.`,
    ]);
    expect(snapshot()).toEqual(before);
  });

  test("a 20 MB review skips its row, named in one line, and nothing is written", async () => {
    const csv = join(temp.path, "review.csv");
    const [opening = "", closing = ""] = goodreadsRow({ title: "The Endless Review", review: "\0" }).split("\0");
    writeLargeFile(csv, 20 * MB, {
      head: `${HEADER}${opening}`,
      piece: () => "Every word of it was worth the wait. ",
      tail: closing,
    });
    const before = snapshot();
    const { status, output } = await run("goodreads", csv, "--write");
    expect(status).toBe(0);
    expect(output).toMatch(
      /^ {2}line 2: "The Endless Review": its My Review is 20\.0 MB, more than a note may hold \(512 kB\)$/m,
    );
    expect(output).toContain("Wrote 0 files.");
    expect(snapshot()).toEqual(before);
  });
});

describe("a Medium zip beyond the limits", () => {
  /** A zip of small posts whose directory declares each `declared` bytes unpacked. */
  function zipDeclaring(count: number, declared: number): string {
    const zip = zipSync(
      Object.fromEntries(
        Array.from({ length: count }, (_, index) => [`posts/post-${index}.html`, new TextEncoder().encode("<html>")]),
      ),
    );
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    for (let offset = 0; offset + 4 <= zip.length; offset++) {
      if (view.getUint32(offset, true) === 0x02014b50) view.setUint32(offset + 24, declared, true);
    }
    const file = join(temp.path, "medium-export.zip");
    writeFileSync(file, zip);
    return file;
  }

  test("a post whose directory entry declares 3 GB is listed as too large, never unpacked", async () => {
    const { status, output } = await run("medium", zipDeclaring(1, 3 * 1024 * MB), "--write");
    expect(status).toBe(0);
    expect(output).toContain(
      "post-0.html: unreadable: it is 3072.0 MB of HTML, more than one essay may come from (2.0 MB)",
    );
    expect(output).toContain("Wrote 0 files.");
  });

  test("posts that would unpack to more than 128 MB, or more than 10,000 posts, stop the import in one line", async () => {
    const before = snapshot();
    const bomb = await run("medium", zipDeclaring(100, 2 * MB - 1), "--write");
    expect(bomb.status).toBe(1);
    expect(lines(bomb.output)).toEqual([
      expect.stringMatching(
        /medium-export\.zip as Medium's export: its posts unpack to more than 128\.0 MB, the most one import takes\. Nothing was written\.$/,
      ),
    ]);
    const many = await run("medium", zipDeclaring(10_001, 6), "--write");
    expect(many.status).toBe(1);
    expect(lines(many.output)).toEqual([
      expect.stringMatching(
        /as Medium's export: it holds more than 10,000 posts, the most one import takes\. Nothing was written\.$/,
      ),
    ]);
    expect(snapshot()).toEqual(before);
  });
});

test("the dry run reports exactly what --write does, each failure the write or the build would meet included", async () => {
  const longTitle = `The ${"Remarkably Persistent Lighthouse ".repeat(9)}Keeper`;
  const csv = join(temp.path, "mixed.csv");
  writeFileSync(
    csv,
    [
      HEADER,
      goodreadsRow({ title: "A Plain Good Book", review: "Short and *kind*." }),
      goodreadsRow({ title: longTitle }),
      goodreadsRow({ title: "Too Long To Hold", review: "word ".repeat(130_000) }),
      goodreadsRow({ title: "Just Too Long To Load", review: "word ".repeat(104_840) }),
      goodreadsRow({ title: "?!" }),
      "a,broken,row\n",
      goodreadsRow({ title: "Deep Work", author: "Cal Newport" }),
      goodreadsRow({ title: "Colours Of The Terminal", author: "\u001b[31mRed\u001b[0m Author\u001b]0;pwned\u0007" }),
    ].join(""),
  );
  const before = snapshot();
  const dry = await run("goodreads", csv);
  expect(dry.status).toBe(0);
  expect(snapshot()).toEqual(before);
  const written = await run("goodreads", csv, "--write");
  expect(written.status).toBe(0);

  const asWritten = (output: string) =>
    lines(output)
      .slice(0, -1)
      .join("\n")
      .replace(/^Would create/m, "Created")
      .replace(/^Would skip/m, "Skipped");
  expect(asWritten(written.output)).toBe(asWritten(dry.output));
  expect(dry.output).toContain(
    'line 4: "Too Long To Hold": its My Review is 635 kB, more than a note may hold (512 kB)',
  );
  expect(dry.output).toContain(
    'line 5: "Just Too Long To Load": would not be valid: is larger than 512 kB, the most a content file may hold: shorten it or split it',
  );
  expect(dry.output).toContain('line 6: "?!": its title has no letter or digit to make a file name of');
  expect(dry.output).toContain("line 7: a row: unreadable: has 3 fields where the header has 31");
  expect(dry.output).toContain('"Deep Work": already there (content/notes/deep-work.md)');
  expect(dry.output).toContain('"Colours Of The Terminal" by Red Author');
  expect(dry.output).not.toContain("\u001b");

  const created = [...dry.output.matchAll(/^ {2}(content\/notes\/\S+\.md)/gm)].map((match) => match[1]);
  const added = [...snapshot().keys()].filter((path) => !before.has(path)).sort();
  expect(added).toEqual([...created].sort());
  expect(added).toHaveLength(3);
  const longSlug = added.find((path) => path.includes("remarkably"))?.replace(/^.*\/|\.md$/g, "") ?? "";
  expect(longSlug.length).toBeLessThanOrEqual(120);
  expect(loadCatalogue(root).notes.find((note) => note.slug === longSlug)?.name).toBe(longTitle);
});

describe("--write writes all its files or none", () => {
  const outputs = [
    { path: "content/site.yaml", text: "edited: true\n", replaces: true, label: "site.yaml" },
    { path: "public/images/notes/new/cover.png", bytes: Buffer.from("png"), label: "cover" },
    { path: "content/notes/first-new.md", text: "first\n", label: "first" },
    { path: "content/notes/second-new.md", text: "second\n", label: "second" },
  ];

  test("a file that appeared meanwhile takes back every move before it, and the staging folder goes", () => {
    writeFileSync(join(root, "content/notes/second-new.md"), "mine\n");
    const before = snapshot();
    expect(() => writeAllOrNone(root, outputs, () => {})).toThrow(
      new NotWritten("content/notes/second-new.md appeared while the import ran; run it again"),
    );
    expect(snapshot()).toEqual(before);
    expect(existsSync(join(root, "public/images/notes/new"))).toBe(false);
    expect(readdirSync(root).sort()).toEqual(["content", "public"]);
  });

  test("a check of the staged files that fails moves nothing", () => {
    const before = snapshot();
    let staged: string[] = [];
    expect(() =>
      writeAllOrNone(root, outputs, (staging) => {
        staged = readdirSync(staging, { recursive: true, encoding: "utf8" });
        throw new NotWritten("content/notes/first-new.md: is not valid");
      }),
    ).toThrow("is not valid");
    expect(staged).toEqual(expect.arrayContaining(["content/notes/first-new.md", "public/images/notes/new/cover.png"]));
    expect(snapshot()).toEqual(before);
    expect(readdirSync(root).sort()).toEqual(["content", "public"]);
  });

  test("when every move succeeds, each file is in place and site.yaml is replaced", () => {
    writeAllOrNone(root, outputs, () => {});
    expect(readFileSync(join(root, "content/site.yaml"), "utf8")).toBe("edited: true\n");
    expect(readFileSync(join(root, "content/notes/second-new.md"), "utf8")).toBe("second\n");
    expect(readFileSync(join(root, "public/images/notes/new/cover.png"), "utf8")).toBe("png");
    expect(readdirSync(root).sort()).toEqual(["content", "public"]);
  });
});
