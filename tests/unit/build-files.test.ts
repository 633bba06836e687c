/**
 * The helpers a build uses to keep what did not change: whether a file holds given bytes, what is
 * removed of what a build did not produce, and the fingerprint of the code that decides whether the
 * bundles can be kept.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { CODE_SOURCES, codeFingerprint } from "../../scripts/build-code.mjs";
import { filesUnder, holds, removeAllBut } from "../../scripts/build-files.ts";

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "build-files-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function writeAll(files: Record<string, string>): void {
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(work, name, ".."), { recursive: true });
    writeFileSync(join(work, name), body);
  }
}

describe("holds", () => {
  test("is true only for a file with exactly those bytes", () => {
    writeAll({ "page.html": "<p>Same</p>" });
    expect(holds(join(work, "page.html"), "<p>Same</p>")).toBe(true);
    expect(holds(join(work, "page.html"), Buffer.from("<p>Same</p>"))).toBe(true);
    expect(holds(join(work, "page.html"), "<p>Same</p>\n")).toBe(false);
    expect(holds(join(work, "missing.html"), "")).toBe(false);
  });
});

describe("removeAllBut", () => {
  test("removes what was not produced, with its compressed copies and the folders left empty", () => {
    writeAll({
      "notes/kept/index.html": "kept",
      "notes/kept/index.html.br": "copy",
      "notes/gone/index.html": "gone",
      "notes/gone/index.html.br": "copy",
      "notes/gone/index.html.gz": "copy",
      "orphan.json.gz": "a copy whose file is gone",
      "downloads/archive.tar.gz": "a file of the site's own",
      "empty/nested/old.txt": "old",
    });
    const keep = new Set(["notes/kept/index.html", "downloads/archive.tar.gz"].map((name) => join(work, name)));
    removeAllBut(work, keep);
    expect(
      filesUnder(work)
        .map((file) => file.slice(work.length + 1))
        .sort(),
    ).toEqual(["downloads/archive.tar.gz", "notes/kept/index.html", "notes/kept/index.html.br"]);
    expect(existsSync(join(work, "notes/gone"))).toBe(false);
    expect(existsSync(join(work, "empty"))).toBe(false);
  });
});

describe("codeFingerprint", () => {
  const PROJECT = resolve(import.meta.dirname, "../..");

  /** A project with a little code and content. */
  function project(): string {
    const root = join(work, "project");
    writeAll({
      "project/app/root.tsx": "export default function App() {}\n",
      "project/package-lock.json": "{}\n",
      "project/content/notes/dune.md": "---\nname: Dune\n---\n",
    });
    return root;
  }

  test("changes with a changed or added file of the code, the settings or the arguments; not with the content", () => {
    const root = project();
    const environment = { SITE_URL: "https://example.com" };
    const first = codeFingerprint(root, [], environment);
    expect(codeFingerprint(root, [], environment)).toBe(first);

    writeFileSync(join(root, "content/notes/dune.md"), "---\nname: Dune Messiah\n---\n");
    expect(codeFingerprint(root, [], environment)).toBe(first);

    expect(codeFingerprint(root, [], { SITE_URL: "https://example.org" })).not.toBe(first);
    expect(codeFingerprint(root, [], { ...environment, CONTENT_ROOT: "tests/fixtures" })).not.toBe(first);
    expect(codeFingerprint(root, ["--logLevel", "warn"], environment)).not.toBe(first);

    writeFileSync(join(root, "app/extra.ts"), "export const x = 1;\n");
    const added = codeFingerprint(root, [], environment);
    expect(added).not.toBe(first);
    writeFileSync(join(root, "app/root.tsx"), "export default function App() { return null; }\n");
    expect(codeFingerprint(root, [], environment)).not.toBe(added);
  });

  test("covers every file of the project that the code imports", () => {
    const sources = CODE_SOURCES.map((source) => join(PROJECT, source));
    const inSources = (file: string) => sources.some((source) => file === source || file.startsWith(`${source}/`));
    // `npm start` runs the build's own output.
    const built = (file: string) => file.startsWith(join(PROJECT, "build/"));
    const codeFiles = sources
      .filter((source) => existsSync(source) && statSync(source).isDirectory())
      .flatMap(filesUnder)
      .filter((file) => /\.(ts|tsx|mjs|js)$/.test(file));
    expect(codeFiles.length).toBeGreaterThan(100);
    for (const file of codeFiles) {
      const text = readFileSync(file, "utf8");
      for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
        const imported = resolve(dirname(file), specifier ?? "");
        expect(inSources(imported) || built(imported), `${file} imports ${specifier}`).toBe(true);
      }
    }
  });
});
