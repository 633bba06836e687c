/**
 * The build cache: a build that takes its covers, cards and compressed copies from the cache writes
 * exactly the files a build without it writes, makes again only what changed, and keeps nothing
 * of a deleted note. Runs the cached steps of the build's last step (scripts/finish-build.ts: the
 * covers and the compressed copies) on the fixture content and a small prerendered folder,
 * without the bundlers.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { cachedBuildOutput, enableBuildCache, pruneBuildCache } from "../../catalogue/build-cache.ts";
import { loadCatalogue } from "../../catalogue/disk.ts";
import { cardPng } from "../../outputs/card-image.ts";
import { filesUnder } from "../../scripts/build-files.ts";
import { BuildOutput, precompress, writeCovers } from "../../scripts/finish-build.ts";

const PROJECT = resolve(import.meta.dirname, "../..");
const FIXTURES = join(PROJECT, "tests/fixtures");
const CARD = { title: "A Page Worth Sharing", owner: "Avery Quinn", site: "averyquinn.example" };

let work: string;
let saved: NodeJS.ProcessEnv;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "build-cache-"));
  saved = { ...process.env };
  delete process.env.CONTENT_ROOT;
  delete process.env.BUILD_CACHE;
});

afterEach(() => {
  process.env = saved;
  rmSync(work, { recursive: true, force: true });
});

/** A project folder with the fixture content, which the test may edit. */
function contentCopy(): string {
  const root = join(work, "site");
  cpSync(join(FIXTURES, "content"), join(root, "content"), { recursive: true });
  cpSync(join(FIXTURES, "public"), join(root, "public"), { recursive: true });
  return root;
}

/** What prerendering leaves for the last step: a page with an inline script, a stylesheet, a small file. */
function prerenderedFolder(name: string): string {
  const build = join(work, name);
  mkdirSync(join(build, "client/notes"), { recursive: true });
  const words = "Notes on books, read slowly and written down. ".repeat(60);
  writeFileSync(join(build, "client/index.html"), `<!doctype html><script>window.x=1</script><p>${words}</p>`);
  writeFileSync(join(build, "client/notes/index.html"), `<!doctype html><style>p{color:red}</style><p>${words}</p>`);
  writeFileSync(join(build, "client/site.css"), `body{margin:0}\n${".note{padding:1rem}\n".repeat(200)}`);
  writeFileSync(join(build, "client/small.txt"), "below the size worth compressing");
  return build;
}

/** Every file of a build folder with its content's hash. */
function filesOf(build: string): Record<string, string> {
  const names = (readdirSync(build, { recursive: true }) as string[]).filter((name) => !name.endsWith("/")).sort();
  const files: Record<string, string> = {};
  for (const name of names) {
    try {
      files[name] = createHash("sha256")
        .update(readFileSync(join(build, name)))
        .digest("hex");
    } catch {
      // A folder.
    }
  }
  return files;
}

const cacheRoot = () => join(work, "cache");
/** The cache's files (inside the content root's folder). */
const entries = () =>
  readdirSync(cacheRoot(), { recursive: true })
    .map(String)
    .filter((name) => name.includes("/"))
    .sort();
const covers = (names: string[]) => names.filter((name) => name.includes("/cover-"));

/** The covers and compressed copies of `root`'s content, into a fresh prerendered folder, with the cache on or off. */
async function finish(root: string, name: string, cache: boolean): Promise<Record<string, string>> {
  process.env.BUILD_CACHE = cache ? "" : "off";
  if (cache) enableBuildCache(PROJECT, root, cacheRoot());
  const client = join(prerenderedFolder(name), "client");
  await writeCovers(loadCatalogue(root), root, client, new BuildOutput());
  await precompress(filesUnder(client));
  pruneBuildCache();
  return filesOf(client);
}

describe("the build cache", () => {
  test("a build from the cache writes byte for byte the files a build without it writes", async () => {
    const root = contentCopy();
    const clean = await finish(root, "clean", false);
    const firstCached = await finish(root, "first", true);
    const made = entries();
    const secondCached = await finish(root, "second", true);
    expect(Object.keys(clean).some((name) => name.startsWith("covers/") && name.endsWith(".png"))).toBe(true);
    expect(Object.keys(clean).some((name) => name.endsWith(".br"))).toBe(true);
    expect(firstCached).toEqual(clean);
    expect(secondCached).toEqual(clean);
    // Nothing changed: the second build used exactly what the first made.
    expect(entries()).toEqual(made);
  });

  test("after one note changes its cover is drawn again, and a deleted note leaves nothing behind", async () => {
    const root = contentCopy();
    await finish(root, "first", true);
    const before = entries();
    const note = join(root, "content/notes/12-rules-for-life.md");
    writeFileSync(note, readFileSync(note, "utf8").replace('author: "Jordan B. Peterson"', 'author: "J. B. Peterson"'));
    const edited = await finish(root, "edited", true);
    const added = entries().filter((name) => !before.includes(name));
    expect(covers(added)).toHaveLength(1);
    // The old drawing was not used by this build: gone from the cache.
    expect(covers(entries())).toHaveLength(covers(before).length);
    expect(edited).toEqual(await finish(root, "edited-clean", false));

    rmSync(note);
    const afterDelete = await finish(root, "deleted", true);
    expect(Object.keys(afterDelete).filter((name) => name.includes("12-rules-for-life"))).toEqual([]);
    expect(covers(entries())).toHaveLength(covers(before).length - 1);
  });

  test("an output is made again when its inputs or the code change, never served stale", async () => {
    const root = contentCopy();
    enableBuildCache(PROJECT, root, cacheRoot());
    let made = 0;
    const card = (inputs: typeof CARD) =>
      cachedBuildOutput("card", inputs, () => {
        made += 1;
        return cardPng(inputs);
      });
    const first = await card(CARD);
    expect(await card(CARD)).toEqual(first);
    expect(made).toBe(1);
    expect(await card({ ...CARD, title: "Another Page" })).not.toEqual(first);
    expect(made).toBe(2);
    // Another version of the code: the same inputs are made again, and the old entries go at the build's end.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const settings = JSON.parse(process.env.BUILD_CACHE ?? "{}");
    process.env.BUILD_CACHE = JSON.stringify({ ...settings, version: "other code", since: Date.now() });
    expect(await card(CARD)).toEqual(first);
    expect(made).toBe(3);
    pruneBuildCache();
    expect(entries()).toHaveLength(1);
  });
});
