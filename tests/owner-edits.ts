/**
 * Tests survive the owner: in a copy of the project, make the first edits a real owner
 * makes to the shipped sample — a new note (read before 2000, with a review), a re-read, a draft
 * note as the READMEs show it, a book begun (one file, shown as reading now), a new essay, a Goodreads history and Medium essays moved in with
 * `npm run import`, a new name in site.yaml, a section renamed in its menu, a new Now date — with the
 * owner's own commands, then run what touches content: the unit suites, `npm run check:content`
 * and the production build. All must pass: no test may depend on the sample catalogue (its facts
 * live in `npm run check:content`). Run by `npm test`; exits 1 on the first failure.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { contentDateOf } from "../catalogue/new-item.ts";
import { copyProject, ownerEnvironment } from "./support/project-copy.ts";

const copy = copyProject({ content: "owner" });
const environment = ownerEnvironment();

function fail(message: string): never {
  console.error(`✗ ${message}`);
  copy.remove();
  process.exit(1);
}

/** Runs a command in the copy; its output is shown only when it fails or when `show` asks for it. */
function run(what: string, command: string, args: string[], show = false): string {
  const result = spawnSync(command, args, { cwd: copy.root, env: environment, encoding: "utf8", timeout: 300_000 });
  const output = `${result.stdout}${result.stderr}`;
  if (show || result.status !== 0) console.log(output.trimEnd());
  if (result.status !== 0) fail(`${what} (exit ${result.status})`);
  console.log(`✓ ${what}`);
  return output;
}

function editFile(path: string, edit: (text: string) => string) {
  const file = join(copy.root, path);
  const text = readFileSync(file, "utf8");
  const changed = edit(text);
  if (changed === text) fail(`the edit of ${path} changed nothing`);
  writeFileSync(file, changed);
}

/** Like run, in the background: the checks that only read the content run side by side. */
function runAside(what: string, command: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: copy.root, env: environment });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (status) => {
      if (status !== 0) {
        console.log(output.trimEnd());
        fail(`${what} (exit ${status})`);
      }
      console.log(`✓ ${what}`);
      resolve(output);
    });
  });
}

const newContent = (args: string[]) =>
  run(`npm run new -- ${args.join(" ")}`, "npx", ["tsx", "scripts/new-content.ts", ...args]);

try {
  // The owner's edits, with the owner's tools.
  newContent([
    "note",
    "The Pragmatic Programmer",
    "--author",
    "Andrew Hunt",
    "--tags",
    "Programming",
    "--rating",
    "9.1",
  ]);
  editFile(
    "content/notes/the-pragmatic-programmer.md",
    (text) =>
      `${text.replace(/^date: .*$/m, 'date: "10/1/1999"')}\nRead it in my first job; still the book I give new engineers.\n`,
  );
  const reread = newContent([
    "note",
    "Atomic Habits",
    "--author",
    "James Clear",
    "--tags",
    "Self-help",
    "--rating",
    "9",
  ]);
  if (!reread.includes("This is a re-read")) fail("npm run new did not say the note was a re-read");
  editFile("content/notes/atomic-habits-2.md", (text) => `${text}\nBetter the second time.\n`);
  newContent(["note", "Dune Messiah", "--author", "Frank Herbert"]);
  newContent(["note", "The Glass Orchard", "--author", "Ines Varga", "--shelf", "reading"]);
  newContent(["write", "On Owning a Site"]);
  editFile(
    "content/write/on-owning-a-site.md",
    (text) => `${text.replace(/^draft: true\n/m, "")}\nA site of one's own is a garden, not a feed.\n`,
  );
  // Moving in: a Goodreads history and Medium essays, brought in with the owner's import command.
  run("npm run import -- goodreads <export> --tags <map> --write", "npx", [
    "tsx",
    "scripts/import.ts",
    "goodreads",
    "tests/fixtures/imports/goodreads_library_export.csv",
    "--tags",
    "tests/fixtures/imports/tag-map.yaml",
    "--write",
  ]);
  run("npm run import -- medium <export folder> --write", "npx", [
    "tsx",
    "scripts/import.ts",
    "medium",
    "tests/fixtures/imports/medium",
    "--write",
  ]);
  // Whatever menu the owner has, the edit gives it one of its own, with Notes renamed.
  editFile("content/site.yaml", (text) => {
    const site = parseDocument(text);
    site.set("name", "Jordan Example");
    site.set("menu", [
      { label: "Home", path: "/" },
      { label: "Books", path: "/notes" },
      { label: "Quotes", path: "/quotes" },
    ]);
    return site.toString();
  });
  const today = contentDateOf(new Date());
  editFile("content/pages/now.md", (text) => text.replace(/^updated: .*$/m, `updated: "${today}"`));

  // What touches content.
  const [check] = await Promise.all([
    runAside("npm run check:content", "npx", ["tsx", "scripts/check-content.ts"]),
    runAside("the unit suites (vitest run tests/unit)", "npx", ["vitest", "run", "tests/unit", "--reporter=dot"]),
    runAside("npm run build", "npm", ["run", "build", "--", "--logLevel", "warn"]),
  ]);
  // A new owner's content is theirs: nothing compares it with the sample or speaks in codes.
  if (/shipped sample|SPEC|✗/.test(check)) fail(`check:content spoke of the sample or an error:\n${check}`);

  const client = join(copy.root, "build/current/client");
  if (!readFileSync(join(client, "index.html"), "utf8").includes("Jordan Example"))
    fail("the new name is not on the home page");
  if (!readFileSync(join(client, "favicon.svg"), "utf8").includes(">JE</text>"))
    fail("the site icon does not show the new owner's initials");
  for (const path of [
    "/notes/the-pragmatic-programmer",
    "/notes/atomic-habits-2",
    "/write/on-owning-a-site",
    "/notes/the-lighthouse-keepers-almanac",
    "/notes/quiet-engines-2",
    "/write/on-tides-and-habits",
  ]) {
    if (!existsSync(join(client, path, "index.html"))) fail(`the build has no page ${path}`);
  }
  if (existsSync(join(client, "notes/dune-messiah"))) fail("the draft note was published");
  const quotesPage = readFileSync(join(client, "quotes/index.html"), "utf8");
  for (const [what, pattern] of [
    ["menu", /aria-label="Site"[\s\S]*?<a[^>]*href="\/notes"[^>]*>Books<\/a>/],
    ["footer", /aria-label="Sections"[\s\S]*?<a[^>]*href="\/notes"[^>]*>Books<\/a>/],
    ["breadcrumb", /aria-label="Breadcrumb"[\s\S]*?<a[^>]*href="\/notes"[^>]*>Books<\/a>/],
  ] as const) {
    if (!pattern.test(quotesPage)) fail(`the ${what} does not call /notes by the menu's new name`);
  }
  for (const page of ["index.html", "now/index.html"]) {
    const readingNow = /<section[^>]*aria-labelledby="reading-now[^"]*"[\s\S]*?<\/section>/.exec(
      readFileSync(join(client, page), "utf8"),
    )?.[0];
    if (!readingNow?.includes("The Glass Orchard")) fail(`the book begun is not under "Reading now" on ${page}`);
  }
  const imported = readFileSync(join(client, "notes/the-lighthouse-keepers-almanac/index.html"), "utf8");
  if (!imported.includes("Maren Holt") || !imported.includes("<strong>poetry</strong>"))
    fail("the imported book's page does not show its author and review");
  console.log("✓ the owner's edits are on the built site; the draft is not");
} finally {
  copy.remove();
}
