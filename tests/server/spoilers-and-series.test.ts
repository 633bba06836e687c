/**
 * The built fixture site's did-not-finish note, written as an import writes a Goodreads review
 * with a spoiler and a series: what a visitor, a search engine, a feed reader and the site search
 * get of it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, test } from "vitest";
import { ensureFixtureBuild, servedBuild } from "./production.ts";

const NOTE = "/notes/a-winter-almanac";
const SECRET = /cartographer|drowns before the thaw/i;
const built = (file: string) => readFileSync(join(servedBuild, "client", file), "utf8");
let page: string;
let render: (path: string) => Promise<string>;

beforeAll(async () => {
  await ensureFixtureBuild();
  page = built("notes/a-winter-almanac/index.html");
  const build = (await import(pathToFileURL(join(servedBuild, "server/index.js")).href)) as ServerBuild;
  const handle = createRequestHandler(build, "production");
  render = async (path) => (await handle(new Request(`http://localhost${path}`))).text();
}, 300_000);

describe("a spoiler on the built site", () => {
  test("the note page holds it in a closed <details>, readable after one click on its summary", () => {
    expect(page).toContain(
      "<details><summary>Spoiler</summary>\n<p>The cartographer drowns before the thaw.</p>\n</details>",
    );
    expect(page).not.toMatch(/<details open/);
  });

  test("outside that block the page never shows it: not in the description, the social tags or the structured data", () => {
    expect(page.replace(/<details>[\s\S]*?<\/details>/, "")).not.toMatch(SECRET);
    for (const name of ['name="description"', 'property="og:description"', 'name="twitter:description"']) {
      expect(page).toContain(`<meta ${name} content="Fixture review of a book put down halfway."/>`);
    }
  });

  test("the notes feed and the search index leave it out; the feed marks where it was", () => {
    const feed = built("feeds/notes.atom");
    expect(feed).toContain("A Winter Almanac by Tove Arnell");
    expect(feed).toContain("(spoiler hidden)");
    expect(feed).not.toMatch(SECRET);
    expect(built("search-index.json")).not.toMatch(SECRET);
  });

  test("the site search finds the note by its review, never by its spoiler", async () => {
    expect(await render("/search?q=halfway")).toContain(`href="${NOTE}"`);
    expect(await render("/search?q=cartographer")).not.toContain(`href="${NOTE}"`);
  });
});

describe("a series on the built site", () => {
  test("the heading, the page title and the notes list show the bare title; the series is a quiet fact", () => {
    expect(page).toContain(`<h1 class="p-name">A Winter Almanac</h1>`);
    expect(page).toMatch(/<title>[^<]*\| A Winter Almanac<\/title>/);
    expect(page).toMatch(/<dt>Series<\/dt><dd>The Northern Almanacs, book 2<\/dd>/);
    expect(built("notes/index.html")).not.toContain("Northern Almanacs");
  });
});
