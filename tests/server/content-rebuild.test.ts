/**
 * `npm run build` after a change to the content alone keeps the bundles and writes what a build
 * from nothing writes, byte for byte: a changed, an added and a deleted note, an added and a
 * deleted public file. New code, or a build that did not finish, makes everything again; a
 * content mistake stops it with the same one line as a whole build. Runs the real command in a
 * copy of the project on the fixture content.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { copyProject, ownerEnvironment, type ProjectCopy } from "../support/project-copy.ts";

const KEPT_BUNDLES = "Only the content changed since the last build: keeping its bundles.";
/** Whole builds of the fixture site take about ten seconds each on a quiet machine. */
const BUILDS_TIMEOUT_MS = 600_000;

let copy: ProjectCopy;
beforeAll(() => {
  copy = copyProject({ content: "fixture" });
  // A public file the owner later deletes: it and its folder must leave the build with it.
  mkdirSync(join(copy.root, "public/downloads"));
  writeFileSync(join(copy.root, "public/downloads/reading-list.txt"), "A list the owner shared once.\n");
});
afterAll(() => copy?.remove());

function build(environment: NodeJS.ProcessEnv = {}): { status: number | null; output: string } {
  // The owner's shell: the copy's own content/ and build/, not the fixture root and build folder a test run names.
  const { BUILD_CACHE: _cache, ...inherited } = ownerEnvironment();
  const result = spawnSync("npm", ["run", "build"], {
    cwd: copy.root,
    env: { ...inherited, ...environment },
    encoding: "utf8",
    timeout: 300_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every file of the served build (or `which` other) with its content's hash. */
function buildFiles(which = "current"): Record<string, string> {
  const buildDir = join(copy.root, "build", which);
  const files: Record<string, string> = {};
  for (const entry of readdirSync(buildDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    files[relative(buildDir, file)] = createHash("sha256").update(readFileSync(file)).digest("hex");
  }
  return files;
}

const serverBundleTime = () => statSync(join(copy.root, "build/current/server/index.js")).mtimeMs;
const file = (path: string) => join(copy.root, path);

describe("a build after a change to the content alone", () => {
  test(
    "keeps the bundles and writes byte for byte what a build from nothing writes",
    () => {
      const first = build();
      expect(first.status, first.output).toBe(0);
      expect(first.output).not.toContain(KEPT_BUNDLES);
      const bundled = serverBundleTime();
      const firstFiles = buildFiles();
      expect(Object.keys(buildFiles())).toContain("client/downloads/reading-list.txt");
      expect(Object.keys(buildFiles()).some((name) => name.startsWith("client/notes/12-rules-for-life/"))).toBe(true);

      appendFileSync(file("content/notes/a-winter-almanac.md"), "\nA second paragraph, written later.\n");
      rmSync(file("content/notes/12-rules-for-life.md"));
      writeFileSync(
        file("content/notes/the-salt-road.md"),
        '---\nname: "The Salt Road"\nauthor: "Mira Olsen"\ndate: "3/14/25"\ntags: ["Fiction"]\ntime: 25\nrating: 4\n---\nA new note, added after the first build.\n',
      );
      rmSync(file("public/downloads"), { recursive: true });
      writeFileSync(file("public/images/map.svg"), '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>\n');

      const again = build();
      expect(again.status, again.output).toBe(0);
      expect(again.output).toContain(KEPT_BUNDLES);
      expect(serverBundleTime()).toBe(bundled);
      // Written beside the build it started from, which stays as it was for whoever serves it.
      expect(buildFiles("previous")).toEqual(firstFiles);
      const kept = buildFiles();
      const names = Object.keys(kept);
      expect(names).toContain("client/notes/the-salt-road/index.html");
      expect(names).toContain("client/images/map.svg");
      expect(names.filter((name) => name.includes("12-rules-for-life") || name.includes("downloads"))).toEqual([]);
      expect(readdirSync(file("build/current/client/notes"))).not.toContain("12-rules-for-life");
      expect(readFileSync(file("build/current/client/notes/a-winter-almanac/index.html"), "utf8")).toContain(
        "A second paragraph, written later.",
      );

      const fromNothing = build({ BUILD_CACHE: "off" });
      expect(fromNothing.status, fromNothing.output).toBe(0);
      expect(fromNothing.output).not.toContain(KEPT_BUNDLES);
      expect(serverBundleTime()).not.toBe(bundled);
      expect(buildFiles()).toEqual(kept);
    },
    BUILDS_TIMEOUT_MS,
  );

  test(
    "new code, or a build that did not finish, makes everything again; a content mistake stops it",
    () => {
      expect(build().status).toBe(0);
      rmSync(file("build/current/content-root.txt"));
      const unfinished = build();
      expect(unfinished.status, unfinished.output).toBe(0);
      expect(unfinished.output).not.toContain(KEPT_BUNDLES);

      appendFileSync(file("app/root.tsx"), "\n// A comment: new code all the same.\n");
      const newCode = build();
      expect(newCode.status, newCode.output).toBe(0);
      expect(newCode.output).not.toContain(KEPT_BUNDLES);

      const note = file("content/notes/a-winter-almanac.md");
      writeFileSync(note, readFileSync(note, "utf8").replace(/^date: .*$/m, 'date: "2/30/21"'));
      const broken = build();
      expect(broken.status).not.toBe(0);
      expect(broken.output).toContain(KEPT_BUNDLES);
      expect(broken.output.trim().split("\n").at(-1)).toBe(
        'Content error: content/notes/a-winter-almanac.md: field "date" "2/30/21" is not a real date written M/D/YY or M/D/YYYY',
      );
      expect(broken.output).not.toMatch(/^\s+at /m);
    },
    BUILDS_TIMEOUT_MS,
  );
});
