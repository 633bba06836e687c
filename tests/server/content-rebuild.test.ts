import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { copyProject, ownerEnvironment, type ProjectCopy } from "../support/project-copy.ts";

/** Whole builds of the fixture site take about ten seconds each on a quiet machine. */
const BUILDS_TIMEOUT_MS = 600_000;

let copy: ProjectCopy;
let first: Record<string, string>;
let again: Record<string, string>;

function build(): { status: number | null; output: string } {
  // The owner's shell: the copy's own content/ and build/, not the fixture root and build folder a test run names.
  const result = spawnSync("npm", ["run", "build"], {
    cwd: copy.root,
    env: ownerEnvironment(),
    encoding: "utf8",
    timeout: 300_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every file under `folder` of the copy with its content's hash. */
function filesOf(folder: string): Record<string, string> {
  const root = join(copy.root, folder);
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    files[relative(root, file)] = createHash("sha256").update(readFileSync(file)).digest("hex");
  }
  return files;
}

const file = (path: string) => join(copy.root, path);
const cacheFolder = () => join("build/cache", readdirSync(file("build/cache"))[0] as string);

beforeAll(() => {
  copy = copyProject({ content: "fixture" });
  // A public file the owner later deletes: it and its folder must leave the build with it.
  mkdirSync(file("public/downloads"));
  writeFileSync(file("public/downloads/reading-list.txt"), "A list the owner shared once.\n");
  const firstBuild = build();
  expect(firstBuild.status, firstBuild.output).toBe(0);
  first = filesOf("build/current");

  appendFileSync(file("content/notes/a-winter-almanac.md"), "\nA second paragraph, written later.\n");
  rmSync(file("content/notes/12-rules-for-life.md"));
  writeFileSync(
    file("content/notes/the-salt-road.md"),
    '---\nname: "The Salt Road"\nauthor: "Mira Olsen"\ndate: "3/14/25"\ntags: ["Fiction"]\ntime: 25\nrating: 4\n---\nA new note, added after the first build.\n',
  );
  rmSync(file("public/downloads"), { recursive: true });
  writeFileSync(file("public/images/map.svg"), '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>\n');
  const secondBuild = build();
  expect(secondBuild.status, secondBuild.output).toBe(0);
  again = filesOf("build/current");
}, BUILDS_TIMEOUT_MS);

afterAll(() => copy?.remove());

describe("a build after the content changed", () => {
  test("shows the edited, added and deleted notes and public files, and leaves nothing of what was deleted", () => {
    expect(Object.keys(first)).toContain("client/downloads/reading-list.txt");
    expect(Object.keys(first).some((name) => name.startsWith("client/notes/12-rules-for-life/"))).toBe(true);
    const names = Object.keys(again);
    expect(names).toContain("client/notes/the-salt-road/index.html");
    expect(names).toContain("content/notes/the-salt-road.md");
    expect(names).toContain("client/images/map.svg");
    expect(names.filter((name) => name.includes("12-rules-for-life") || name.includes("downloads"))).toEqual([]);
    expect(readFileSync(file("build/current/client/notes/a-winter-almanac/index.html"), "utf8")).toContain(
      "A second paragraph, written later.",
    );
  });

  test("writes brotli and gzip copies that hold their file's bytes", () => {
    const copies = Object.keys(again).filter((name) => name.endsWith(".br"));
    expect(copies.length).toBeGreaterThan(50);
    for (const name of copies) {
      const original = readFileSync(file(`build/current/${name.slice(0, -3)}`));
      expect(brotliDecompressSync(readFileSync(file(`build/current/${name}`))).equals(original), name).toBe(true);
      expect(gunzipSync(readFileSync(file(`build/current/${name.slice(0, -3)}.gz`))).equals(original), name).toBe(true);
    }
  });

  test(
    "takes an unchanged drawing from the image cache, and keeps no drawing of a deleted note",
    () => {
      const entries = readdirSync(file(cacheFolder()));
      const drawings = Object.keys(again).filter((name) =>
        /^client\/((cards|covers)\/.*|apple-touch-icon)\.png$/.test(name),
      );
      const drawn = new Set(entries.map(drawnAs));
      expect(drawn).toEqual(new Set(drawings.map((name) => again[name])));
      const deleted = Object.keys(first).filter((name) => name.includes("12-rules-for-life") && name.endsWith(".png"));
      expect(deleted.length).toBeGreaterThan(0);
      for (const name of deleted) expect(drawn.has(first[name] as string), name).toBe(false);

      // The build reads the entry rather than drawing: an entry's bytes become the build's file.
      const card = "client/cards/about.png";
      const entry = entries.find((name) => drawnAs(name) === again[card]) as string;
      const marked = Buffer.concat([
        readFileSync(file(`${cacheFolder()}/${entry}`)),
        Buffer.from("taken from the cache"),
      ]);
      writeFileSync(file(`${cacheFolder()}/${entry}`), marked);
      const rebuilt = build();
      expect(rebuilt.status, rebuilt.output).toBe(0);
      expect(readFileSync(file(`build/current/${card}`)).equals(marked)).toBe(true);
    },
    BUILDS_TIMEOUT_MS,
  );

  test(
    "with a content mistake stops with one line naming the file, and serves the previous build",
    () => {
      const served = readFileSync(file("build/current/build.json"), "utf8");
      const note = file("content/notes/a-winter-almanac.md");
      writeFileSync(note, readFileSync(note, "utf8").replace(/^date: .*$/m, 'date: "2/30/21"'));
      const broken = build();
      expect(broken.status).not.toBe(0);
      expect(broken.output.trim().split("\n").at(-1)).toBe(
        'Content error: content/notes/a-winter-almanac.md: field "date" "2/30/21" is not a real date written M/D/YY or M/D/YYYY',
      );
      expect(broken.output).not.toMatch(/^\s+at /m);
      expect(readFileSync(file("build/current/build.json"), "utf8")).toBe(served);
    },
    BUILDS_TIMEOUT_MS,
  );
});

function drawnAs(entry: string): string {
  return createHash("sha256")
    .update(readFileSync(file(`${cacheFolder()}/${entry}`)))
    .digest("hex");
}
