import { mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { cachedImage, imageCache, pruneImageCache } from "../../outputs/image-cache.ts";

const PROJECT = resolve(import.meta.dirname, "../..");
let work: string;
let draws: number;
const draw = (text: string) => () => {
  draws++;
  return Buffer.from(text);
};

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "image-cache-"));
  draws = 0;
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe("the image cache", () => {
  test("draws an image once and gives the same bytes to a later build", async () => {
    const cache = imageCache(PROJECT, work, "/site");
    expect(await cachedImage("card", { title: "A" }, draw("first"), cache)).toEqual(Buffer.from("first"));
    expect(await cachedImage("card", { title: "A" }, draw("second"), cache)).toEqual(Buffer.from("first"));
    expect(draws).toBe(1);
  });

  test("draws again when the inputs or the drawing code differ, so no entry can be stale", async () => {
    const cache = imageCache(PROJECT, work, "/site");
    await cachedImage("card", { title: "A" }, draw("A"), cache);
    expect(await cachedImage("card", { title: "B" }, draw("B"), cache)).toEqual(Buffer.from("B"));
    const newCode = { ...cache, drawing: "other code" };
    expect(await cachedImage("card", { title: "A" }, draw("A, redrawn"), newCode)).toEqual(Buffer.from("A, redrawn"));
    expect(draws).toBe(3);
  });

  test("keeps each site's images apart", () => {
    expect(imageCache(PROJECT, work, "/site").dir).not.toBe(imageCache(PROJECT, work, "/fixtures").dir);
  });

  test("outside a build draws every time", async () => {
    await cachedImage("card", { title: "A" }, draw("A"));
    await cachedImage("card", { title: "A" }, draw("A"));
    expect(draws).toBe(2);
  });

  test("prunes the entries a build did not use, keeping those it did", async () => {
    const cache = imageCache(PROJECT, work, "/site");
    await cachedImage("card", { title: "deleted note" }, draw("old"), cache);
    const [old] = readdirSync(cache.dir);
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(cache.dir, old as string), past, past);
    const since = Date.now() - 1000;
    await cachedImage("card", { title: "kept note" }, draw("new"), cache);
    pruneImageCache(cache, since);
    expect(readdirSync(cache.dir)).toHaveLength(1);
    expect(readdirSync(cache.dir)).not.toContain(old);
  });
});
