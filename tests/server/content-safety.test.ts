/**
 * Nothing imported or written runs script on the site. In a copy of the project: a Goodreads export
 * and a Medium archive carrying every payload go through `npm run import --write`, and an owner's
 * note and newsletter issue carry them raw (the sanitizer alone stands between them and the page);
 * `npm start` builds and serves the site once, and Chromium opens each page. Then the policy: every
 * kind of page lists only the hashes of the app's own inline scripts, and refuses any other.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "csv-stringify/sync";
import { zipSync } from "fflate";
import { Parser } from "htmlparser2";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GOODREADS_COLUMNS } from "../../scripts/import/goodreads.ts";
import { CHROMIUM_ARGS, findChromium } from "../support/chromium.ts";
import { HOSTILE_HTML, HOSTILE_MARKDOWN, runningParts } from "../support/hostile-html.ts";
import { copyProject, type ProjectCopy } from "../support/project-copy.ts";
import { childProcessEnv, waitFor } from "./helpers.ts";

/** A review's quote: the site makes it a quote page and a card of its own. */
const QUOTED_REVIEW = "<blockquote>&lt;script&gt;alert(30)&lt;/script&gt; <img src=x onerror=alert(31)></blockquote>";
const REVIEW = [...HOSTILE_HTML, QUOTED_REVIEW, "— p. 4", "The end of the review."].join("<br/><br/>");

const MEDIUM_POST = `<!DOCTYPE html><html><head><title>A Hostile Essay</title></head><body><article class="h-entry">
<header><h1 class="p-name">A Hostile Essay</h1></header>
<section data-field="body" class="e-content"><section class="section"><div class="section-content">
<h3 class="graf graf--h3 graf--title">A Hostile Essay</h3>${HOSTILE_HTML.map((payload) => `<p class="graf graf--p">${payload}</p>`).join("")}
</div></section></section>
<footer><a href="https://medium.com/p/0a1b2c3d4e5f"><time class="dt-published" datetime="2024-02-03T08:30:00.000Z">Feb 3, 2024</time></a>
<a href="https://medium.com/@writer/a-hostile-essay-0a1b2c3d4e5f" class="p-canonical">Canonical link</a></footer></article></body></html>`;

// A Markdown image from data: never reaches a page: the content check refuses any image not of the site.
const WRITTEN = HOSTILE_MARKDOWN.filter((payload) => !payload.includes("!["));
const BODY = `${WRITTEN.join("\n\n")}\n\n> <img src=x onerror=alert(32)> [x](javascript:alert(33))\n\n— p. 9\n`;
const OWNER_NOTE = `---\nname: "A Hostile Note"\nauthor: "Mallory Vance"\ndate: "5/2/25"\ntags: ["Fiction"]\ntime: 20\nrating: 6\n---\n${BODY}`;
const OWNER_ISSUE = `---\ntitle: "Hostile issue"\ndate: "6/1/25"\n---\n${BODY}`;

/** The pages whose bodies came from the import or from the owner's raw files. */
const BODY_PAGES = [
  "/notes/the-hostile-review",
  "/quotes/the-hostile-review-1",
  "/quotes",
  "/notes/a-hostile-note",
  "/quotes/a-hostile-note-1",
  "/write/a-hostile-essay",
  "/updates/hostile-issue",
];

let copy: ProjectCopy;
let server: ChildProcess;
let origin: string;
let browser: Browser;
const dataDir = () => join(copy.root, "data");

/** An owner's command in the copy, with the copy's own content/ (no CONTENT_ROOT). */
function inCopy(script: string, ...args: string[]): string {
  const result = spawnSync(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: copy.root,
    env: { ...childProcessEnv(), DATA_DIR: dataDir() },
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(result.status, `${script} ${args.join(" ")}:\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  copy = copyProject({ content: "fixture" });
  const exports = join(copy.root, "exports");
  mkdirSync(exports);
  const row = {
    "Book Id": "9001",
    Title: "The Hostile Review",
    Author: "Mallory Vance",
    "My Rating": "4",
    "Date Read": "2024/03/01",
    "Date Added": "2024/02/01",
    Bookshelves: "fiction",
    "Exclusive Shelf": "read",
    "My Review": REVIEW,
  };
  writeFileSync(join(exports, "goodreads.csv"), stringify([row], { header: true, columns: [...GOODREADS_COLUMNS] }));
  writeFileSync(
    join(exports, "medium.zip"),
    zipSync({ "posts/2024-02-03_A-Hostile-Essay-0a1b2c3d4e5f.html": Buffer.from(MEDIUM_POST) }),
  );
  expect(inCopy("scripts/import.ts", "goodreads", join(exports, "goodreads.csv"), "--write")).toContain(
    "content/notes/the-hostile-review.md",
  );
  expect(inCopy("scripts/import.ts", "medium", join(exports, "medium.zip"), "--write")).toContain(
    "content/write/a-hostile-essay.md",
  );
  writeFileSync(join(copy.root, "content/notes/a-hostile-note.md"), OWNER_NOTE);
  openSanitizerHole();
  writeFileSync(join(copy.root, "content/updates/hostile-issue.md"), OWNER_ISSUE);

  // npm start: one build, then the production server.
  let output = "";
  server = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: copy.root,
    env: { ...childProcessEnv(), DATA_DIR: dataDir() },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  server.stdout?.on("data", collect);
  server.stderr?.on("data", collect);
  await waitFor(() => server.exitCode !== null || /Serving on http:\/\/\S+:\d+/.test(output), {
    timeoutMs: 400_000,
    what: "the copy's production server to listen",
  });
  if (server.exitCode !== null) throw new Error(`npm start exited (${server.exitCode}):\n${output}`);
  origin = (/Serving on (http:\/\/\S+:\d+)/.exec(output) as RegExpExecArray)[1] as string;
  browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
  copy?.remove();
});

/**
 * The copy's page renderer lets one essay's body through unsanitized, as a hole in the sanitizer
 * would: its script is in the page when the build hashes the page's inline scripts.
 */
const HOLE = "sanitizer-hole";
function openSanitizerHole() {
  const derive = join(copy.root, "catalogue/derive.ts");
  const code = readFileSync(derive, "utf8");
  const rendering = 'html: source ? renderHtml(tokens) : "",';
  expect(code).toContain(rendering);
  writeFileSync(
    derive,
    code.replace(
      rendering,
      `html: source.includes("${HOLE}") ? markdown.parser(tokens) : source ? renderHtml(tokens) : "",`,
    ),
  );
  writeFileSync(
    join(copy.root, "content/write/a-hole.md"),
    `---\nname: "A Hole"\ndate: "4/1/25"\ntime: 1\n---\n<script>window.bypassed = "${HOLE}";</script>\n\nA body the sanitizer let through.\n`,
  );
}

/** Opens a page and gives it time to run what it would: broken images' handlers, a refresh. */
async function visit(page: Page, path: string): Promise<string[]> {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(origin + path, { waitUntil: "load" });
  await page.waitForTimeout(300);
  return dialogs;
}

/** Every body the page shows: notes, essays and issues (.prose), and quotes (blockquote). */
const bodiesOf = (page: Page) =>
  page.$$eval(".prose, blockquote", (elements) => elements.map((element) => element.innerHTML).join("\n"));

describe("imported and written payloads in the browser", () => {
  test.each(BODY_PAGES)("%s: no dialog opens, the page stays, and its bodies hold nothing that runs", async (path) => {
    const page = await browser.newPage();
    try {
      const dialogs = await visit(page, path);
      expect(dialogs).toEqual([]);
      expect(new URL(page.url()).pathname).toBe(path);
      const bodies = await bodiesOf(page);
      expect(bodies.length).toBeGreaterThan(0);
      expect(runningParts(bodies)).toEqual([]);
      const injected = await page.$$eval("body meta, body base, body iframe, body object, body embed", (found) =>
        found.map((element) => element.outerHTML),
      );
      expect(injected).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test("the escaped script of a review shows as its text", async () => {
    const page = await browser.newPage();
    try {
      await visit(page, "/notes/the-hostile-review");
      expect(await page.locator(".prose").first().textContent()).toContain("<script>alert(document.domain)</script>");
    } finally {
      await page.close();
    }
  });
});

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, "&");

describe("feeds and mail", () => {
  test.each(["/feeds/notes.atom", "/feeds/writings.atom", "/feeds/quotes.atom", "/feeds/updates.atom"])(
    "%s: the HTML of every entry holds nothing that runs",
    async (path) => {
      const feed = await (await fetch(origin + path)).text();
      const contents = [...feed.matchAll(/<content type="html">([\s\S]*?)<\/content>/g)].map((match) =>
        unescapeXml(match[1] as string),
      );
      expect(contents.some((html) => /hostile|alert|Image/i.test(html))).toBe(true);
      for (const html of contents) expect(runningParts(html)).toEqual([]);
    },
  );

  test("the newsletter mail of the issue holds nothing that runs", () => {
    inCopy("scripts/newsletter.ts", "preview", "hostile-issue");
    const mail = readFileSync(join(dataDir(), "newsletter-preview", "hostile-issue.html"), "utf8");
    const body = mail.slice(mail.indexOf("<body"));
    expect(body).toContain("Hostile issue");
    expect(runningParts(body)).toEqual([]);
  });
});

const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/** The hashes of every inline script a browser would run on the page (JSON-LD is data). */
function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  let open: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "script" && !("src" in attributes) && attributes.type !== "application/ld+json") open = "";
      },
      ontext(text) {
        if (open !== undefined) open += text;
      },
      onclosetag(name) {
        if (name === "script" && open !== undefined) hashes.add(hashOf(open));
        open = undefined;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return [...hashes].sort();
}

const scriptSrcHashes = (policy: string) =>
  (policy.split(";").find((directive) => directive.trim().startsWith("script-src")) ?? "")
    .split(/\s+/)
    .filter((source) => source.startsWith("'sha256-"))
    .sort();

/** Every kind of page: prerendered with and without React, rendered per request (a search, a list), not found. */
const PAGE_KINDS = {
  "a prerendered page without React": { path: "/notes/the-hostile-review", status: 200, hydrates: false },
  "a prerendered page with React": { path: "/notes", status: 200, hydrates: true },
  "a search rendered per request": { path: "/search?q=hostile", status: 200, hydrates: false },
  "a filtered list rendered per request": { path: "/notes?q=hostile", status: 200, hydrates: true },
  "the not-found page": { path: "/no/such/page", status: 404, hydrates: false },
};

describe("the Content-Security-Policy of every kind of page", () => {
  test("a script that got past the sanitizer is in the page but not in its policy, and Chromium refuses it", async () => {
    const response = await fetch(`${origin}/write/a-hole`);
    const html = await response.text();
    const script = `window.bypassed = "${HOLE}";`;
    expect(html).toContain(`<script>${script}</script>`);
    const policy = response.headers.get("Content-Security-Policy") ?? "";
    expect(scriptSrcHashes(policy).length).toBeGreaterThan(0);
    expect(policy).not.toContain(hashOf(script));

    const page = await browser.newPage();
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    try {
      await visit(page, "/write/a-hole");
      expect(await page.evaluate(() => (window as { bypassed?: string }).bypassed)).toBeUndefined();
      expect(refused.some((message) => /inline script/i.test(message))).toBe(true);
      expect(await page.locator("html").getAttribute("data-theme")).toMatch(/.+/);
    } finally {
      await page.close();
    }
  });

  test.each(Object.entries(PAGE_KINDS))(
    "%s lists exactly the hashes of its own inline scripts, and no mark is left",
    async (_kind, { path, status }) => {
      const response = await fetch(origin + path);
      expect(response.status).toBe(status);
      const html = await response.text();
      expect(html).not.toMatch(/\snonce=/);
      const own = inlineScriptHashes(html);
      expect(own.length).toBeGreaterThan(0);
      expect(scriptSrcHashes(response.headers.get("Content-Security-Policy") ?? "")).toEqual(own);
    },
  );

  test.each(Object.entries(PAGE_KINDS))(
    "%s: a script put into it after the sanitizer is refused, while its own scripts run",
    async (_kind, { path, hydrates }) => {
      const page = await browser.newPage();
      const refused: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      try {
        // As if the sanitizer had let it through: the page's own answer, headers and all, with a script in its body.
        await page.route(origin + path, async (route) => {
          const answer = await route.fetch();
          // In the head: React leaves a foreign element there alone, where one in the body would fail its hydration.
          const body = (await answer.text()).replace("</head>", "<script>window.injected = true;</script></head>");
          const { "content-encoding": _encoding, "content-length": _length, ...headers } = answer.headers();
          await route.fulfill({ status: answer.status(), headers, body });
        });
        const dialogs = await visit(page, path);
        expect(dialogs).toEqual([]);
        expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined();
        expect(refused.some((message) => /inline script/i.test(message))).toBe(true);
        // The theme script in the head ran; a page with React hydrated.
        expect(await page.locator("html").getAttribute("data-theme")).toMatch(/.+/);
        if (hydrates) await page.waitForSelector("html[data-hydrated='true']", { timeout: 15_000 });
      } finally {
        await page.close();
      }
    },
  );
});
