/**
 * What an IndieWeb reader parses from the production server's pages, read with the same
 * microformats parser the webmention door uses: the owner's h-card, each post an h-entry, the
 * lists h-feeds.
 */
import { mf2 } from "microformats-parser";
import { describe, expect, test } from "vitest";
import { catalogue } from "../browser/fixture-site.ts";
import { serverForThisFile } from "./production.ts";

const origin = serverForThisFile();

type Item = { type: string[]; properties: Record<string, unknown[]>; children?: Item[] };

async function parsed(path: string) {
  const url = `${origin()}${path}`;
  const html = await (await fetch(url)).text();
  return mf2(html, { baseUrl: url });
}

const named = (item: Item | undefined, property: string) => item?.properties[property]?.[0];

describe("microformats", () => {
  test("an essay is an h-entry with its name, date, address, content and the owner as author", async () => {
    const essay = catalogue.writings.find((writing) => writing.slug === "fear");
    const { items, rels } = await parsed("/write/fear");
    const entry = (items as Item[]).find((item) => item.type.includes("h-entry"));
    expect(named(entry, "name")).toBe(essay?.name);
    expect(named(entry, "published")).toBe(essay?.date);
    expect(named(entry, "url")).toMatch(/\/write\/fear$/);
    expect((named(entry, "content") as { value: string }).value).toContain((essay?.text ?? "").slice(0, 40));
    expect((named(entry, "author") as Item).properties.name).toEqual([catalogue.site.name]);
    expect(rels.author?.[0]).toMatch(/\/$/);
  });

  test("every page carries the owner's h-card, named and linked to the home page", async () => {
    for (const path of ["/", "/notes/atomic-habits", "/about"]) {
      const card = ((await parsed(path)).items as Item[]).find((item) => item.type.includes("h-card"));
      expect(named(card, "name"), path).toBe(catalogue.site.name);
      expect(named(card, "url"), path).toBe(`${origin()}/`);
    }
  });

  test("a book note is an h-entry named after the book", async () => {
    const entry = ((await parsed("/notes/atomic-habits")).items as Item[]).find((item) =>
      item.type.includes("h-entry"),
    );
    expect(named(entry, "name")).toBe("Atomic Habits");
    expect(named(entry, "url")).toMatch(/\/notes\/atomic-habits$/);
  });

  test.each([
    ["/write", catalogue.writings.length],
    ["/updates", catalogue.updates.length],
  ])("%s is an h-feed of its entries, each named and linked", async (path, count) => {
    const feed = ((await parsed(path)).items as Item[]).find((item) => item.type.includes("h-feed"));
    const entries = (feed?.children ?? []).filter((item) => item.type.includes("h-entry"));
    expect(entries).toHaveLength(count);
    for (const entry of entries) {
      expect(named(entry, "name")).toEqual(expect.any(String));
      expect(named(entry, "url")).toMatch(new RegExp(`^${origin()}${path}/`));
    }
  });
});
