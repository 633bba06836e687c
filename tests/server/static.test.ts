/**
 * host/static.ts on real files in a temporary build folder: one cache entry per file whatever
 * the request's spelling, no entry for a path without a file, and a cache bounded in bytes.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { createStaticFiles, encodedETag, unreadablePath } from "../../host/static.ts";
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

test("a path no file can have is no file, whatever the disk would say of it", () => {
  const lookup = createStaticFiles(temp.path);
  const reasons = {
    [`/${"a".repeat(256)}`]: "a segment longer than 255 bytes",
    [`/${"é".repeat(128)}`]: "a segment longer than 255 bytes",
    [`/${"a/".repeat(600)}`]: "longer than 1024 bytes",
    "/%ZZ": "bad percent-encoding",
    "/notes/%00/x": "a NUL byte",
  };
  for (const [path, reason] of Object.entries(reasons)) {
    expect(unreadablePath(path)).toBe(reason);
    expect(lookup(path)).toBeNull();
  }
  expect(unreadablePath(`/${"a".repeat(255)}`)).toBeNull();
  // A file's name used as a folder: the disk answers ENOTDIR.
  expect(lookup("/notes/index.html/x")).toBeNull();
  expect(lookup.cacheSize().files).toBe(0);
});

test("each encoding's bytes have their own ETag", () => {
  const tags = (["identity", "br", "gzip"] as const).map((encoding) => encodedETag('"abc-1"', encoding));
  expect(tags).toEqual(['"abc-1"', '"abc-1-br"', '"abc-1-gzip"']);
});
