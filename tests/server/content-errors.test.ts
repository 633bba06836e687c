/**
 * A content mistake stops `npm run build`, `npm start` and `npm run check:content` alike,
 * with one line naming the file, the field and the reason, printed last, and a non-zero exit; under
 * `npm run dev` the same line is the page and is printed once in the terminal, with no stack trace.
 * Each runs the real command in a copy of the project on the fixture content.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../../bench/processes.ts";
import { writeLargeFile } from "../support/large-file.ts";
import { first } from "../support/lists.ts";
import { copyProject, ownerEnvironment, type ProjectCopy } from "../support/project-copy.ts";

let copy: ProjectCopy;
beforeAll(() => {
  copy = copyProject({ content: "fixture" });
});
afterAll(() => copy?.remove());

const ownerShell = () => ({ ...ownerEnvironment(), DATA_DIR: join(copy.root, "data") });

/** Runs a command in the copy with stdout and stderr in one file, as a terminal shows them, in order. */
function runInCopy(command: string, args: string[]): { status: number | null; output: string } {
  const log = join(copy.root, "command.log");
  const fd = openSync(log, "w");
  const result = spawnSync(command, args, {
    cwd: copy.root,
    env: ownerShell(),
    stdio: ["ignore", fd, fd],
    timeout: 120_000,
  });
  closeSync(fd);
  return { status: result.status, output: readFileSync(log, "utf8") };
}

const lastLine = (output: string) => output.trimEnd().split("\n").at(-1);

/** Breaks one file of the copy; the returned function puts it back. */
function breakFile(path: string, edit: (text: string) => string | null): () => void {
  const file = join(copy.root, path);
  let original: string | null = null;
  try {
    original = readFileSync(file, "utf8");
  } catch {
    // A new file: removing it puts the content back.
  }
  const text = edit(original ?? "");
  if (text === null) rmSync(file);
  else writeFileSync(file, text);
  return () => (original === null ? rmSync(file, { force: true }) : writeFileSync(file, original));
}

const CASES = [
  {
    name: "a missing local image",
    path: "content/work/acme.md",
    edit: (text: string) => text.replace("/images/work/acme.svg", "/images/work/acme-logo.png"),
    line: 'Content error: content/work/acme.md: field "logo" names the image /images/work/acme-logo.png, but there is no file public/images/work/acme-logo.png',
  },
  {
    name: "a remote image",
    path: "content/notes/mans-search-for-meaning.md",
    edit: (text: string) =>
      text.replace('"/images/notes/mans-search-for-meaning.svg"', '"https://covers.example.com/frankl.jpg"'),
    line: 'Content error: content/notes/mans-search-for-meaning.md: field "photo" "https://covers.example.com/frankl.jpg" is a remote image: save the file under public/images/ and write its path, e.g. "/images/notes/cover.jpg" (the site loads no image from other hosts)',
  },
  {
    name: "a *.markdown file",
    path: "content/notes/dune.markdown",
    edit: () => '---\nname: "Dune"\n---\n',
    line: 'Content error: content/notes/dune.markdown: has the unknown extension ".markdown": content/notes/ holds Markdown files named <slug>.md',
  },
  {
    name: "a misspelt tag",
    path: "content/notes/germinal.md",
    edit: (text: string) => text.replace(/^tags: \[.*\]$/m, 'tags: ["Fictoin"]'),
    line: 'Content error: content/notes/germinal.md: field "tags" has the tag "Fictoin", which is not in the tags of content/site.yaml: did you mean "Fiction"?',
  },
  {
    name: "an impossible date",
    path: "content/write/fear.md",
    edit: (text: string) => text.replace(/^date: .*$/m, 'date: "2/30/21"'),
    line: 'Content error: content/write/fear.md: field "date" "2/30/21" is not a real date written M/D/YY or M/D/YYYY',
  },
  {
    name: "a body nested 2,000 levels deep",
    path: "content/notes/germinal.md",
    edit: (text: string) => `${text}\n${">".repeat(2000)} deep\n`,
    line: "Content error: content/notes/germinal.md: nests blockquotes, lists or HTML elements 2000 levels deep; at most 100 are allowed",
  },
];

describe("npm run build", () => {
  for (const broken of CASES) {
    test(`${broken.name}: the build exits non-zero and its last line names the file, the field and the reason`, () => {
      const restore = breakFile(broken.path, broken.edit);
      try {
        const { status, output } = runInCopy("npm", ["run", "build"]);
        expect(status).not.toBe(0);
        expect(lastLine(output)).toBe(broken.line);
        expect(output).not.toMatch(/^\s+at /m);
      } finally {
        restore();
      }
    });
  }
});

describe("a file name or a file too large", () => {
  const LONG_NAME = `content/work/${"a".repeat(121)}.md`;
  const LARGE_NOTE = "content/notes/mans-search-for-meaning.md";
  const lines = {
    name: `Content error: ${LONG_NAME}: has a file name of 121 bytes before its extension: at most 120 fit every filesystem`,
    size: `Content error: ${LARGE_NOTE}: is larger than 512 kB, the most a content file may hold: shorten it or split it`,
  };
  /** The note grown to 20 MB on disk, written piece by piece; the returned function puts it back. */
  function growNote(): () => void {
    const file = join(copy.root, LARGE_NOTE);
    const original = readFileSync(file, "utf8");
    writeLargeFile(file, 20 * 1024 * 1024, {
      head: original,
      piece: () => "Meaning is found in the work. ".repeat(40),
    });
    return () => writeFileSync(file, original);
  }

  test("check:content and the build refuse a 121-byte file name and a 20 MB note, each in its last line", () => {
    for (const [line, breakIt] of [
      [lines.name, () => breakFile(LONG_NAME, () => readFileSync(join(copy.root, "content/work/acme.md"), "utf8"))],
      [lines.size, growNote],
    ] as const) {
      const restore = breakIt();
      try {
        const check = runInCopy("npx", ["tsx", "scripts/check-content.ts"]);
        expect(check.status).toBe(1);
        expect(lastLine(check.output)).toBe(`✗ ${line}`);
        const build = runInCopy("npm", ["run", "build"]);
        expect(build.status).not.toBe(0);
        expect(lastLine(build.output)).toBe(line);
        expect(build.output).not.toMatch(/^\s+at /m);
      } finally {
        restore();
      }
    }
  });
});

describe("npm start and npm run check:content", () => {
  test("npm start stops with the same last line, before serving anything", () => {
    const broken = first(CASES);
    const restore = breakFile(broken.path, broken.edit);
    try {
      const { status, output } = runInCopy("node", ["scripts/start.mjs"]);
      expect(status).not.toBe(0);
      expect(lastLine(output)).toBe(broken.line);
      expect(output).not.toContain("Serving on");
    } finally {
      restore();
    }
  });

  test("npm run check:content names the same problem and exits 1", () => {
    for (const broken of CASES) {
      const restore = breakFile(broken.path, broken.edit);
      try {
        const { status, output } = runInCopy("npx", ["tsx", "scripts/check-content.ts"]);
        expect(status, broken.name).toBe(1);
        expect(output).toContain(broken.line.replace("Content error: ", ""));
      } finally {
        restore();
      }
    }
  });
});

describe("npm run dev", () => {
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill("SIGTERM");
  });

  test("the page is the one-line message, printed once in the terminal without a stack trace; fixing the file brings the site back; a 20 MB note is refused the same way", async () => {
    const broken = first(CASES);
    const restore = breakFile(broken.path, broken.edit);
    const port = await freePort();
    let terminal = "";
    server = spawn("npx", ["tsx", "host/main.ts", "--dev"], {
      cwd: copy.root,
      env: { ...ownerShell(), PORT: String(port), HOST: "127.0.0.1", SITE_URL: `http://127.0.0.1:${port}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk) => {
      terminal += chunk;
    });
    server.stderr?.on("data", (chunk) => {
      terminal += chunk;
    });
    const url = `http://127.0.0.1:${port}`;
    const page = async (path: string) => {
      for (let attempt = 0; ; attempt++) {
        try {
          const response = await fetch(`${url}${path}`, { headers: { accept: "text/html" } });
          return { status: response.status, html: await response.text() };
        } catch (error) {
          if (attempt > 240) throw error;
          await new Promise((done) => setTimeout(done, 250));
        }
      }
    };

    const message = broken.line;
    const escaped = message.replace(/"/g, "&quot;");
    for (const path of ["/", "/notes", "/work/acme"]) {
      const answer = await page(path);
      expect(answer.status, path).toBe(500);
      expect(answer.html).toContain(`<p id="content-error">${escaped}</p>`);
    }
    expect(terminal.split(message).length - 1).toBe(1);
    expect(terminal).not.toMatch(/^\s+at /m);

    restore();
    await expect.poll(async () => (await page("/work/acme")).status, { timeout: 30_000, interval: 250 }).toBe(200);
    expect((await page("/work/acme")).html).toContain("<h1>Acme</h1>");
    expect(terminal).toContain("The content is valid again.");

    const bigNote = join(copy.root, "content/notes/mans-search-for-meaning.md");
    const note = readFileSync(bigNote, "utf8");
    writeLargeFile(bigNote, 20 * 1024 * 1024, { head: note, piece: () => "Meaning is found in the work. ".repeat(40) });
    try {
      const tooLarge =
        "Content error: content/notes/mans-search-for-meaning.md: is larger than 512 kB, the most a content file may hold: shorten it or split it";
      await expect
        .poll(async () => (await page("/notes")).html, { timeout: 30_000, interval: 250 })
        .toContain(tooLarge);
      expect(terminal.split(tooLarge).length - 1).toBe(1);
    } finally {
      writeFileSync(bigNote, note);
    }
  }, 120_000);
});
