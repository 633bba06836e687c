/**
 * A throwaway copy of the project in a temporary folder, to run the owner's commands (`npm run
 * build`, `npm start`, `npm run dev`, the unit suites) on edited or broken content without touching
 * the real one. Sources are copied; node_modules is a folder of links to the project's packages, so
 * the tools' caches stay in the copy.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const PROJECT_ROOT = join(import.meta.dirname, "../..");

/** What the copy leaves behind: generated output, local data, version control, the dependencies (linked). */
const NOT_COPIED = new Set([
  ".git",
  "build",
  "data",
  "test-results",
  "playwright-report",
  ".react-router",
  "node_modules",
]);
/** Caches that tools write inside node_modules: the copy gets its own. */
const NOT_LINKED = new Set([".vite", ".vite-temp", ".cache"]);

export type ProjectCopy = { root: string; remove: () => void };

/**
 * The environment of the owner's shell in a copy: no CONTENT_ROOT, so that the copy's own content/
 * is read, and no BUILD_DIR, so that it builds into its own build/ and not the tests' folder.
 */
export function ownerEnvironment(environment: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { CONTENT_ROOT: _root, BUILD_DIR: _builds, TEST_BUILD_DIR: _testBuilds, ...owner } = environment;
  return owner;
}

/**
 * Copies the project into a new temporary folder. With `content: "fixture"`, content/ and public/
 * are the fixture tree's (tests/fixtures) instead of the owner's.
 */
export function copyProject(options: { content: "owner" | "fixture" }): ProjectCopy {
  const root = mkdtempSync(join(tmpdir(), "project-copy-"));
  for (const entry of readdirSync(PROJECT_ROOT)) {
    if (NOT_COPIED.has(entry)) continue;
    cpSync(join(PROJECT_ROOT, entry), join(root, entry), { recursive: true });
  }
  if (options.content === "fixture") {
    for (const folder of ["content", "public"]) {
      rmSync(join(root, folder), { recursive: true, force: true });
      cpSync(join(PROJECT_ROOT, "tests/fixtures", folder), join(root, folder), { recursive: true });
    }
  }
  mkdirSync(join(root, "node_modules"));
  for (const entry of readdirSync(join(PROJECT_ROOT, "node_modules"))) {
    if (!NOT_LINKED.has(entry))
      symlinkSync(join(PROJECT_ROOT, "node_modules", entry), join(root, "node_modules", entry));
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every file under a folder and its bytes, to see that nothing changed. */
export function filesUnder(root: string): Map<string, string> {
  return new Map(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name);
        return [relative(root, path), readFileSync(path).toString("base64")];
      }),
  );
}
