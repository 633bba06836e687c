/**
 * `npm run import` and `npm run export` as the owner runs them, on copies of the fixture site in
 * temporary folders: a dry run changes nothing, --write writes files the loader accepts, a second
 * run creates nothing, no file is overwritten, covers come from a local server standing in for
 * Open Library, and a Goodreads file written by the export gives back the same notes.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { zipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { loadCatalogue } from "../../catalogue/disk.ts";
import { contentPath } from "../../catalogue/new-item.ts";
import { searchIndexFile } from "../../catalogue/site-search.ts";
import { slugify } from "../../catalogue/slug.ts";
import { notesFeed } from "../../outputs/feeds.ts";
import { svgToPng } from "../../outputs/png.ts";
import { importCommand } from "../../scripts/import/command.ts";
import { exportCommand } from "../../scripts/import/export-command.ts";
import { noteText } from "../../scripts/import/files.ts";
import { filesUnder } from "../support/project-copy.ts";
import { makeTempDir } from "./helpers.ts";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURES = join(PROJECT, "tests/fixtures");
const IMPORTS = join(FIXTURES, "imports");
const GOODREADS = join(IMPORTS, "goodreads_library_export.csv");
const TAG_MAP = join(IMPORTS, "tag-map.yaml");

// Two tests start the scripts as processes of their own, each compiling TypeScript: seconds on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir("import-");
});
afterEach(() => temp.remove());

/** A copy of the fixture site (content/ and public/) in the temporary folder; `empty` leaves out its notes. */
function site(name: string, options: { empty?: boolean } = {}): string {
  const root = join(temp.path, name);
  for (const folder of ["content", "public"]) cpSync(join(FIXTURES, folder), join(root, folder), { recursive: true });
  if (options.empty) {
    rmSync(join(root, "content/notes"), { recursive: true });
    // The links to notes go too, or the site would not load without them.
    for (const path of readdirSync(join(root, "content"), { recursive: true, encoding: "utf8" })) {
      if (!path.endsWith(".md")) continue;
      const file = join(root, "content", path);
      writeFileSync(file, readFileSync(file, "utf8").replace(/\[([^\]]*)\]\(\/notes\/[^)]*\)/g, "$1"));
    }
  }
  return root;
}

const notesOf = (root: string) =>
  new Map(
    readdirSync(join(root, "content/notes")).map((name) => [
      name,
      readFileSync(join(root, "content/notes", name), "utf8"),
    ]),
  );

/** Runs an owner's script as `npm run` does, in a process of its own, without blocking this one. */
function spawned(script: "import" | "export", ...args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
      cwd: PROJECT,
      env: { PATH: process.env.PATH ?? "" },
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (status) => resolve({ status, output }));
  });
}

/** Runs the command the script runs, in this process: what it prints and its exit code. */
async function run(script: "import" | "export", ...args: string[]): Promise<{ status: number; output: string }> {
  let output = "";
  const print = (text: string) => {
    output += `${text}\n`;
  };
  const status = script === "import" ? await importCommand(args, print, print) : exportCommand(args, print, print);
  return { status, output };
}

describe("importing a Goodreads export", () => {
  test("a dry run of npm run import prints what it would create and skip, and why, and changes nothing", async () => {
    const root = site("site");
    const before = filesUnder(root);
    const { status, output } = await spawned("import", "goodreads", GOODREADS, "--root", root);
    expect(status).toBe(0);
    expect(output).toContain("Would create");
    expect(output).toContain("content/notes/the-lighthouse-keepers-almanac.md");
    expect(output).toContain("line 9: a row: unreadable: has 4 fields where the header has 31");
    expect(output).toContain('line 10: "An Unrated Voyage": unrated');
    expect(output).toContain(
      '"Deep Work: Rules for Focused Success in a Distracted World": already there (content/notes/deep-work.md)',
    );
    expect(output).toMatch(
      /Shelves that are no tag of content\/site.yaml .*\n {2}favorites \(2\), short-stories \(1\), fantasy \(1\)/,
    );
    expect(output).toContain("Dry run: nothing was written.");
    expect(filesUnder(root)).toEqual(before);
  });

  test("--write writes notes the loader accepts, and running it again creates nothing", async () => {
    const root = site("site");
    const first = await run("import", "goodreads", GOODREADS, "--root", root, "--tags", TAG_MAP, "--write");
    expect(first.status).toBe(0);
    const notes = loadCatalogue(root).notes;
    const copperGate = notes.find((note) => note.slug === "the-copper-gate");
    expect(copperGate).toMatchObject({
      name: "The Copper Gate",
      series: { name: "The Tidewater Cycle", number: 1 },
      rating: 6,
      tags: ["Fiction"],
    });
    expect(notes.filter((note) => note.name === "Quiet Engines").map((note) => [note.slug, note.rating])).toEqual(
      expect.arrayContaining([
        ["quiet-engines", 6],
        ["quiet-engines-2", 10],
      ]),
    );
    expect(notes.find((note) => note.slug === "salt-smoke-and-other-stories")).toMatchObject({
      name: 'Salt, Smoke, and "Other" Stories',
      author: "Ilse Ångström",
    });
    const after = filesUnder(root);
    const again = await run("import", "goodreads", GOODREADS, "--root", root, "--tags", TAG_MAP, "--write");
    expect(again.status).toBe(0);
    expect(again.output).not.toContain("Created");
    expect(again.output).toContain('line 2: "The Lighthouse Keeper\'s Almanac": already there');
    expect(again.output).toContain("Wrote 0 files.");
    expect(filesUnder(root)).toEqual(after);
  });

  test("a file already at a note's name is never overwritten: the new note takes the next free one", async () => {
    const root = site("site");
    const path = join(root, "content/notes/quiet-engines.md");
    const mine =
      '---\nname: "Quiet Engines"\nauthor: "A Different Author"\ndate: "1/2/20"\ntags: ["Fiction"]\nrating: 7\ntime: 0\n---\nMine.\n';
    writeFileSync(path, mine);
    const { status, output } = await run("import", "goodreads", GOODREADS, "--root", root, "--write");
    expect(status).toBe(0);
    expect(output).toContain("content/notes/quiet-engines-2.md");
    expect(output).toContain("content/notes/quiet-engines-3.md");
    expect(readFileSync(path, "utf8")).toBe(mine);
  });

  test("--add-tags adds the unknown shelves to site.yaml, keeping its comments, and the notes carry them", async () => {
    const root = site("site");
    const { status, output } = await run("import", "goodreads", GOODREADS, "--root", root, "--add-tags", "--write");
    expect(status).toBe(0);
    expect(output).toMatch(/Added to the tags of content\/site.yaml:\n {2}Favorites, Short stories, Fantasy/);
    const siteYaml = readFileSync(join(root, "content/site.yaml"), "utf8");
    const original = readFileSync(join(FIXTURES, "content/site.yaml"), "utf8");
    expect(siteYaml.replace(/^tags: .*$/m, "")).toBe(original.replace(/^tags: .*$/m, ""));
    const catalogue = loadCatalogue(root);
    expect(catalogue.site.tags).toEqual(expect.arrayContaining(["Favorites", "Short stories", "Fantasy"]));
    expect(catalogue.notes.find((note) => note.slug === "the-copper-gate")?.tags).toEqual(["Fantasy"]);
  });

  test("a file that is not an export, an unknown source or option stops with the usage and writes nothing", async () => {
    const root = site("site");
    const before = filesUnder(root);
    const notExport = await run("import", "goodreads", TAG_MAP, "--root", root);
    expect(notExport.status).toBe(1);
    expect(notExport.output).toContain("This is not a Goodreads export");
    const unknown = await run("import", "librarything", GOODREADS, "--root", root);
    expect(unknown.status).toBe(2);
    expect(unknown.output).toContain('Unknown source "librarything"');
    expect(unknown.output).toContain("Usage:");
    expect(filesUnder(root)).toEqual(before);
    const help = await run("import", "--help");
    expect(help).toMatchObject({ status: 0 });
    expect(help.output).toContain("--covers-url <url>");
  });
});

describe("an imported library reads right", () => {
  test("a Goodreads spoiler is a closed block of the note, never in its excerpt, the search index or the feed in clear", async () => {
    const root = site("site");
    expect((await run("import", "goodreads", GOODREADS, "--root", root, "--tags", TAG_MAP, "--write")).status).toBe(0);
    expect(readFileSync(join(root, "content/notes/the-copper-gate.md"), "utf8")).toContain(
      "The gate is copper, the town is salt.\n\n[spoiler]\nOnly the drowned may open it.\n[/spoiler]\n\nWorth the wait.\n",
    );
    const catalogue = loadCatalogue(root);
    const copperGate = catalogue.notes.find((note) => note.slug === "the-copper-gate");
    expect(copperGate?.html).toContain(
      "<details><summary>Spoiler</summary>\n<p>Only the drowned may open it.</p>\n</details>",
    );
    expect(copperGate?.excerpt).toBe("The gate is copper, the town is salt. Worth the wait.");
    const lighthouse = catalogue.notes.find((note) => note.slug === "the-lighthouse-keepers-almanac");
    expect(lighthouse?.html).toContain("<p>The keeper was the lighthouse all along.</p>\n</details>");
    const secrets = /drowned may open|lighthouse all along/;
    for (const note of catalogue.notes) expect(`${note.text} ${note.excerpt}`).not.toMatch(secrets);
    expect(searchIndexFile(catalogue)).not.toMatch(secrets);
    const feed = notesFeed(catalogue, "https://site.example", (note) => `https://site.example/covers/${note.slug}.png`);
    expect(feed).toContain("(spoiler hidden)");
    expect(feed).not.toMatch(secrets);
  });

  test("a series suffix becomes the note's series: out of its name, file name and every list", async () => {
    const root = site("site");
    expect((await run("import", "goodreads", GOODREADS, "--root", root, "--tags", TAG_MAP, "--write")).status).toBe(0);
    const file = readFileSync(join(root, "content/notes/the-copper-gate.md"), "utf8");
    expect(file).toContain('name: "The Copper Gate"\n');
    expect(file).toContain('series: { name: "The Tidewater Cycle", number: 1 }\n');
    const catalogue = loadCatalogue(root);
    expect(catalogue.notes.map((note) => note.name).filter((name) => name.includes("#"))).toEqual([]);
    const exported = join(temp.path, "goodreads_export.csv");
    expect((await run("export", "goodreads", "--root", root, "--out", exported)).status).toBe(0);
    expect(readFileSync(exported, "utf8")).toContain('"The Copper Gate (The Tidewater Cycle, #1)"');
  });
});

test("a StoryGraph export's readings become notes and re-readings", async () => {
  const root = site("site");
  const { status, output } = await run(
    "import",
    "storygraph",
    join(IMPORTS, "storygraph_export.csv"),
    "--root",
    root,
    "--tags",
    TAG_MAP,
    "--write",
  );
  expect(status).toBe(0);
  expect(output).toContain("line 8: a row: unreadable: has 2 fields where the header has 23");
  const notes = loadCatalogue(root).notes;
  expect(
    notes.filter((note) => note.name === "Quiet Engines").map((note) => [note.slug, note.date, note.rating]),
  ).toEqual(
    expect.arrayContaining([
      ["quiet-engines", "2019-05-01", 8.5],
      ["quiet-engines-2", "2023-08-20", 8.5],
    ]),
  );
  expect(notes.find((note) => note.slug === "quiet-engines-2")?.tags).toEqual(["Fiction", "Engineering"]);
  expect(notes.find((note) => note.slug === "le-jardin-dhiver")).toMatchObject({ rating: 7.5, isbn: "9782070360024" });
});

describe("importing a Medium export", () => {
  test("from the folder or the zip, published posts become essays once; drafts and replies are counted", async () => {
    const root = site("site");
    const folder = join(IMPORTS, "medium");
    const zip = join(temp.path, "medium-export.zip");
    const entries = Object.fromEntries(
      [...filesUnder(folder)].map(([path, base64]) => [path.split("\\").join("/"), Buffer.from(base64, "base64")]),
    );
    writeFileSync(zip, zipSync(entries));

    const dry = await run("import", "medium", zip, "--root", root);
    expect(dry.output).toContain("4 posts, 2 published (1 draft and 1 reply left out)");
    expect(dry.output).toContain("content/on-tides-and-habits.md".replace("content/", "content/write/"));
    const written = await run("import", "medium", zip, "--root", root, "--write");
    expect(written.status).toBe(0);
    expect(written.output).toContain(
      "content/write/on-tides-and-habits.md: https://cdn-images-1.medium.com/max/800/1*tide.jpeg",
    );
    const essay = loadCatalogue(root).writings.find((writing) => writing.slug === "on-tides-and-habits");
    expect(essay).toMatchObject({
      name: "On Tides and Habits",
      date: "2021-05-02",
      mediumLink: "https://medium.com/@sample-writer/on-tides-and-habits-1a2b3c4d5e6f",
    });
    expect(essay?.markdown).toContain("#### Three small rules\n\n1. Start smaller than feels useful.");

    const after = filesUnder(root);
    const again = await run("import", "medium", folder, "--root", root, "--write");
    expect(again.output).toContain("Wrote 0 files.");
    expect(again.output).toContain("already there (content/write/on-tides-and-habits.md)");
    expect(filesUnder(root)).toEqual(after);
  });
});

describe("covers", () => {
  let server: Server;
  const requests: { path: string; at: number }[] = [];
  const cover = svgToPng(
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="450"><rect width="300" height="450" fill="#2f5d50"/></svg>',
  );

  beforeEach(async () => {
    requests.length = 0;
    server = createServer((request, response) => {
      requests.push({ path: request.url ?? "", at: Date.now() });
      if (request.url === "/b/isbn/9780306406157-L.jpg?default=false") {
        response.writeHead(200, { "content-type": "image/png" }).end(cover);
      } else response.writeHead(404).end("not found");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("a found cover is saved at the list's size and named by its note; a missing one leaves the drawn cover", async () => {
    const root = site("site");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dry = await run(
      "import",
      "goodreads",
      GOODREADS,
      "--root",
      root,
      "--tags",
      TAG_MAP,
      "--covers",
      "--covers-url",
      url,
    );
    expect(dry.output).toMatch(/Would fetch the covers of \d+ books with an ISBN/);
    expect(requests).toEqual([]);

    const { status, output } = await run(
      "import",
      "goodreads",
      GOODREADS,
      "--root",
      root,
      "--tags",
      TAG_MAP,
      "--covers",
      "--covers-url",
      url,
      "--write",
    );
    expect(status).toBe(0);
    expect(output).toContain(
      "content/notes/the-copper-gate.md: the drawn cover, since the covers service has no cover for it",
    );
    const png = readFileSync(join(root, "public/images/notes/the-lighthouse-keepers-almanac.png"));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([129, 190]);
    const notes = loadCatalogue(root).notes;
    expect(notes.find((note) => note.slug === "the-lighthouse-keepers-almanac")?.photo).toBe(
      "/images/notes/the-lighthouse-keepers-almanac.png",
    );
    expect(notes.find((note) => note.slug === "the-copper-gate")?.photo).toBe("/covers/the-copper-gate.svg");
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const [index, request] of requests.slice(1).entries()) {
      expect(request.at - (requests[index]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    }
  });

  test("without a network the notes keep the drawn cover and the report says so", async () => {
    const root = site("site");
    const closed = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server = createServer();
    const { status, output } = await run(
      "import",
      "goodreads",
      GOODREADS,
      "--root",
      root,
      "--tags",
      TAG_MAP,
      "--covers",
      "--covers-url",
      closed,
      "--write",
    );
    expect(status).toBe(0);
    expect(output).toContain(
      "content/notes/the-lighthouse-keepers-almanac.md: the drawn cover, since the covers service could not be reached",
    );
    expect(loadCatalogue(root).notes.find((note) => note.slug === "the-lighthouse-keepers-almanac")?.photo).toBe(
      "/covers/the-lighthouse-keepers-almanac.svg",
    );
  });
});

test("the Goodreads file of the export, imported into an empty site, gives back the same notes", async () => {
  const first = site("first", { empty: true });
  const second = site("second", { empty: true });
  expect((await run("import", "goodreads", GOODREADS, "--root", first, "--tags", TAG_MAP, "--write")).status).toBe(0);
  const exported = join(temp.path, "goodreads_export.csv");
  const exportRun = await spawned("export", "goodreads", "--root", first, "--out", exported);
  expect(exportRun.status).toBe(0);
  expect(exportRun.output).toMatch(/Wrote \d+ notes to/);
  expect((await run("export", "goodreads", "--root", first, "--out", exported)).output).toContain(
    "already exists; nothing was written",
  );

  const back = await run("import", "goodreads", exported, "--root", second, "--write");
  expect(back.status).toBe(0);
  expect(back.output).not.toContain("Skipped");
  const notes = notesOf(first);
  expect(notes.size).toBeGreaterThanOrEqual(6);
  expect(notesOf(second)).toEqual(notes);
});

test("titles a spreadsheet would run as formulas are exported guarded, and imported back as the same note files", async () => {
  const first = site("first", { empty: true });
  const second = site("second", { empty: true });
  const titles = [
    '=HYPERLINK("http://x","y")',
    "+SUM(1,1)",
    "-2+3",
    "@SUM(1)",
    "\tTab-led Title",
    "\rCR-led Title",
    "'Salem's Lot",
  ];
  mkdirSync(join(first, "content/notes"));
  for (const [index, title] of titles.entries()) {
    const note = {
      title,
      author: `=cmd|' /C calc'!A${index}`,
      date: "2021-03-14",
      shelf: "read" as const,
      tags: ["Fiction"],
      rating: 2 * (index % 5) + 2,
      isbn: "",
      photo: "",
      review: index % 2 ? "+1, would read again." : "",
    };
    writeFileSync(join(first, contentPath("note", slugify(title))), noteText(note));
  }
  const exported = join(temp.path, "goodreads_export.csv");
  expect((await run("export", "goodreads", "--root", first, "--out", exported)).status).toBe(0);
  const csv = readFileSync(exported, "utf8");
  expect(csv).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
  expect(csv).toContain(`"'=cmd|' /C calc'!A0"`);
  expect(csv).toContain(`"'\tTab-led Title"`);
  expect(csv).toContain(`"'\rCR-led Title"`);
  expect(csv).not.toMatch(/(^|,)[=+\-@\t\r][^"]/m);

  const back = await run("import", "goodreads", exported, "--root", second, "--write");
  expect(back.status).toBe(0);
  expect(back.output).not.toContain("Skipped");
  expect(notesOf(second)).toEqual(notesOf(first));
  expect(
    loadCatalogue(second)
      .notes.map((note) => [note.name, note.author, note.rating])
      .sort(),
  ).toEqual(
    loadCatalogue(first)
      .notes.map((note) => [note.name, note.author, note.rating])
      .sort(),
  );
});
