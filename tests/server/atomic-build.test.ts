/**
 * `npm run build` beside a running `npm start`, in a copy of the project on the fixture content:
 * a build that fails late (a public file in the way of a page, found while prerendering) leaves
 * every file answering as before, byte for byte, and ends with one line naming the file; a build
 * of new content is served whole (each page with the policy of its own inline scripts); a build
 * of new code waits for a restart; no build writes under node_modules.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, lstatSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { copyProject, type ProjectCopy } from "../support/project-copy.ts";
import { childProcessEnv, makeTempDir, waitFor } from "./helpers.ts";
import { type ProductionServer, startServerIn } from "./production.ts";

let copy: ProjectCopy;
let data: ReturnType<typeof makeTempDir>;
let server: ProductionServer;
let nodeModulesBefore: string[];
/** What every file answered before the failed builds: URL path → status, headers and body hash. */
let answersBefore: Map<string, string>;

/** The owner's shell, the same for every build and the server: no setting differs between them. */
const shell = () => {
  const { PORT: _port, HOST: _host, ...environment } = childProcessEnv();
  return environment;
};

/** `npm run build` in the copy, its exit code and output, while the server keeps answering. */
function build(environment: Record<string, string> = {}): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn("npm", ["run", "build"], { cwd: copy.root, env: { ...shell(), ...environment } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (status) => done({ status, output }));
  });
}

const served = () => readlinkSync(join(copy.root, "build/current"));
const clientDir = () => join(copy.root, "build/current/client");
const lastLine = (output: string) => output.trimEnd().split("\n").at(-1) ?? "";
const sha256 = (body: string | Buffer) => createHash("sha256").update(body).digest("base64");

/**
 * Every entry under the copy's node_modules (a folder of links) with its kind and time, but
 * Vitest's own cache, which the test runner itself writes meanwhile.
 */
function nodeModulesListing(): string[] {
  const folder = join(copy.root, "node_modules");
  return readdirSync(folder, { recursive: true })
    .map(String)
    .filter((name) => !name.startsWith(".vitest-cache"))
    .sort()
    .map((name) => {
      const stat = lstatSync(join(folder, name));
      return `${name} ${stat.isSymbolicLink() ? "link" : stat.isDirectory() ? "folder" : "file"} ${stat.mtimeMs}`;
    });
}

/** The URL paths of the served build's files (their compressed copies aside). */
function sitePaths(): string[] {
  return readdirSync(clientDir(), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .map((file) => `/${relative(clientDir(), file).split("/").map(encodeURIComponent).join("/")}`)
    .map((path) => path.replace(/\/?index\.html$/, "") || "/")
    .sort();
}

async function answer(path: string): Promise<string> {
  const response = await fetch(server.origin + path);
  const body = Buffer.from(await response.arrayBuffer());
  const headers = ["content-type", "content-security-policy", "etag"].map((name) => response.headers.get(name));
  return [response.status, ...headers, sha256(body)].join(" | ");
}

async function answers(paths: string[]): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  for (const path of paths) result.set(path, await answer(path));
  return result;
}

/** The inline scripts and styles of a page that its Content-Security-Policy does not allow. */
function unallowedInline(html: string, policy: string): string[] {
  const directive = (name: string) => policy.split(";").find((part) => part.trim().startsWith(`${name} `)) ?? "";
  // Data blocks (JSON-LD) are never run, so no policy needs to allow them.
  const inline = (tag: string) =>
    [
      ...html.matchAll(
        new RegExp(`<${tag}(?![^>]*\\s(?:src=|type="application/ld\\+json"))[^>]*>([\\s\\S]*?)</${tag}>`, "g"),
      ),
    ].map((match) => match[1] ?? "");
  return [
    ...inline("script").filter((body) => !directive("script-src").includes(`'sha256-${sha256(body)}'`)),
    ...inline("style").filter((body) => !directive("style-src").includes(`'sha256-${sha256(body)}'`)),
  ];
}

/** A page as served: its text, and whatever of it the policy sent with it would refuse. */
async function page(path: string): Promise<{ html: string; refused: string[] }> {
  const response = await fetch(server.origin + path);
  expect(response.status).toBe(200);
  const html = await response.text();
  return { html, refused: unallowedInline(html, response.headers.get("content-security-policy") ?? "") };
}

beforeAll(async () => {
  copy = copyProject({ content: "fixture" });
  data = makeTempDir("site-atomic-");
  nodeModulesBefore = nodeModulesListing();
  const first = await build();
  expect(first.status, first.output).toBe(0);
  server = await startServerIn(copy.root, { ...shell(), DATA_DIR: data.path, PORT: "0", HOST: "127.0.0.1" });
  expect(server.output()).not.toContain("Building");
  answersBefore = await answers(sitePaths());
}, 600_000);

afterAll(async () => {
  await server?.stop();
  copy?.remove();
  data?.remove();
});

describe("a build under a running server", () => {
  test("that fails late leaves every file answering as before, byte for byte, and ends with one line naming the file", async () => {
    const before = served();
    const versions = readdirSync(join(copy.root, "build/versions"));
    // A public file where the prerendering writes the page /about: found only once pages are written.
    writeFileSync(join(copy.root, "public/about"), "A file named like a page.\n");
    try {
      const failed = await build();
      expect(failed.status).not.toBe(0);
      expect(lastLine(failed.output)).toMatch(
        /^Build failed, the site still serves the previous build: .*client\/about'?$/,
      );
      expect(failed.output).not.toMatch(/^\s+at /m);
      expect(served()).toBe(before);
      expect(readdirSync(join(copy.root, "build/versions"))).toEqual(versions);
      expect(await answers([...answersBefore.keys()])).toEqual(answersBefore);
    } finally {
      rmSync(join(copy.root, "public/about"));
    }
  }, 300_000);

  test("that succeeds is served whole: each page with its new text and the policy of its own inline scripts", async () => {
    const note = "/notes/a-winter-almanac";
    expect((await page(note)).refused).toEqual([]);
    appendFileSync(join(copy.root, "content/notes/a-winter-almanac.md"), "\nA paragraph the owner added later.\n");
    const building = build();
    let finished = false;
    void building.then(() => (finished = true));
    // Every answer while the build runs and the server switches is one build's page and policy.
    while (!finished) expect((await page(note)).refused).toEqual([]);
    const result = await building;
    expect(result.status, result.output).toBe(0);
    const switched = await waitFor(
      async () => {
        const current = await page(note);
        return current.html.includes("A paragraph the owner added later.") ? current : undefined;
      },
      { timeoutMs: 10_000, what: "the server to serve the new build" },
    );
    expect(switched.refused).toEqual([]);
    expect(server.output()).toContain("Serving the new build");
    const assets = new Set(switched.html.match(/\/assets\/[\w.-]+/g));
    expect(assets.size).toBeGreaterThan(0);
    for (const asset of assets) expect((await fetch(server.origin + asset)).status, asset).toBe(200);
  }, 300_000);

  test("of new code is served only after a restart; until then every file answers as before", async () => {
    const paths = sitePaths();
    const before = await answers(paths);
    appendFileSync(join(copy.root, "host/main.ts"), '\nconsole.log("New code.");\n');
    const result = await build();
    expect(result.status, result.output).toBe(0);
    await waitFor(() => server.output().includes("restart the server to serve it"), {
      timeoutMs: 10_000,
      what: "the server to notice the new build",
    });
    expect(await answers(paths)).toEqual(before);
  }, 300_000);

  test("writes nothing under node_modules (a deployment may keep it read-only)", () => {
    expect(nodeModulesListing()).toEqual(nodeModulesBefore);
  });
});
