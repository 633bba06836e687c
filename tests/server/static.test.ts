/**
 * server/http/static.ts on real files in a temporary build folder: one cache entry per file whatever
 * the request's spelling, no entry for a path without a file, and a cache bounded in bytes.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { createStaticFiles } from "../../server/http/static.ts";
import { makeTempDir } from "./helpers.ts";

let temp: ReturnType<typeof makeTempDir>;

beforeEach(() => {
  temp = makeTempDir();
  mkdirSync(join(temp.path, "notes"));
  writeFileSync(join(temp.path, "notes/index.html"), "<!doctype html><title>Notes</title>");
  writeFileSync(join(temp.path, "notes/index.html.br"), "br-copy");
  writeFileSync(join(temp.path, "notes/index.html.gz"), "gz-copy");
});

afterEach(() => temp.remove());

test("every spelling of one file shares one cache entry", () => {
  const lookup = createStaticFiles(temp.path);
  const spellings = ["/notes", "/notes/", "/notes//index.html", "/%6eotes/", "/notes/index.html", "/./notes/"];
  const files = spellings.map((spelling) => lookup(spelling));
  for (const file of files) expect(file?.bodies.identity.toString()).toContain("<title>Notes</title>");
  expect(new Set(files).size).toBe(1);
  expect(lookup.cacheSize().files).toBe(1);
});

test("paths without a file and traversal attempts leave the cache empty", () => {
  const lookup = createStaticFiles(temp.path);
  for (let index = 0; index < 2000; index++) expect(lookup(`/missing-${index}/x.html`)).toBeNull();
  for (const attempt of ["/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/notes/index.html.br", "/%00", "/%E0%A4%A"])
    expect(lookup(attempt)).toBeNull();
  expect(lookup.cacheSize()).toEqual({ files: 0, bytes: 0 });
});

test("the cache holds no more bytes than its bound, dropping the least recently used file", () => {
  for (let index = 0; index < 50; index++) writeFileSync(join(temp.path, `page-${index}.html`), "x".repeat(1000));
  const lookup = createStaticFiles(temp.path, 10_000);
  for (let index = 0; index < 50; index++) expect(lookup(`/page-${index}.html`)?.bodies.identity.length).toBe(1000);
  expect(lookup.cacheSize().bytes).toBeLessThanOrEqual(10_000);
  expect(lookup.cacheSize().files).toBe(10);
  // The most recent file is still served from the cache: the same object comes back.
  expect(lookup("/page-49.html")).toBe(lookup("/page-49.html"));
});

test("a file changed on disk is read again", () => {
  const lookup = createStaticFiles(temp.path);
  const before = lookup("/notes/");
  writeFileSync(join(temp.path, "notes/index.html"), "<!doctype html><title>Changed notes</title>");
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(temp.path, "notes/index.html"), later, later);
  const after = lookup("/notes/");
  expect(after?.bodies.identity.toString()).toContain("Changed notes");
  expect(after).not.toBe(before);
});
