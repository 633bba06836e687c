/**
 * host/render-cache.ts in-process: the key a list's query is cached under,
 * the byte bound of the rendered lists, one render per key at a time, and the concurrency limit.
 * The pages rendered here are plain HTML made by the test; the production server's renders are in
 * render-limits.test.ts.
 */
import { gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { inlineMarker } from "../../app/lib/inline-marker.ts";
import { canonicalListQuery } from "../../catalogue/filters.ts";
import { canonicalSearchQuery } from "../../catalogue/search-text.ts";
import {
  createRenderCache,
  createRenderLimiter,
  filteredListKey,
  MAX_WAITING_PER_CLIENT,
} from "../../host/render-cache.ts";
import { ConfigError, readConfig } from "../../services/config.ts";
import { makeTempDir } from "./helpers.ts";

/** A render: the app's own script carries the inline marker, a script that came with the content does not. */
/** The queries the lists' and the search's routes declare (their `handle`). */
const QUERIES: Record<string, (params: URLSearchParams) => string> = {
  "/notes": canonicalListQuery,
  "/write": canonicalListQuery,
  "/search": canonicalSearchQuery,
};
const keyOf = (path: string, search: string) => filteredListKey(path, search, QUERIES[path]);

const page = (text: string) =>
  new Response(
    `<!doctype html><title>${text}</title><script nonce="${inlineMarker()}">run()</script><p>${"x".repeat(20_000)}</p><script>alert(1)</script>`,
    { headers: { "Content-Type": "text/html" } },
  );

/** A promise the test resolves when it wants. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("the cache of rendered lists", () => {
  test("one filter in any spelling is one key, and unknown parameters or defaults give the prerendered page", () => {
    const spellings = [
      "?q=habit&tag=Fiction",
      "?tag=Fiction&q=habit",
      "?q=habit&tag=Fiction&utm_source=newsletter&fbclid=1",
      "?q=other&q=habit&tag=Fiction",
      "?q=%68abit&tag=Fiction&sort=date",
      "?sort=bogus&q=habit&tag=Fiction",
    ];
    const keys = new Set(spellings.map((search) => keyOf("/notes", search)));
    expect([...keys]).toEqual(["/notes?q=habit&tag=Fiction"]);
    expect(keyOf("/notes", "?sort=rating&q=x")).toBe("/notes?q=x&sort=rating");
    for (const search of ["?utm_source=x", "?sort=date", "?q=&tag=", "?fbclid=1&ref=home"]) {
      expect(keyOf("/notes", search)).toBeNull();
    }
    expect(keyOf("/write", "?q=fear&utm_medium=mail")).toBe("/write?q=fear");
    expect(filteredListKey("/about", "?q=habit&tag=Fiction")).toBeNull();
  });

  test("a site search is one key in any spelling, cut to its maximum length; a blank one is the prerendered page", () => {
    for (const search of [
      "?q=deep+work",
      "?q=%20deep%20%20work%20&utm_source=x",
      "?q=other&q=deep%20work",
      "?tag=x&q=deep+work",
    ]) {
      expect(keyOf("/search", search)).toBe("/search?q=deep+work");
    }
    for (const search of ["", "?q=", "?q=%20%20", "?utm_source=x"]) expect(keyOf("/search", search)).toBeNull();
    const key = keyOf("/search", `?q=${"a".repeat(5000)}`);
    expect(key).toBe(`/search?q=${"a".repeat(200)}`);
  });

  const VISITOR = "203.0.113.1";

  test("thousands of distinct queries keep the rendered lists within their byte bound", async () => {
    const maxBytes = 256 * 1024;
    const cache = createRenderCache(maxBytes, createRenderLimiter(4));
    for (let index = 0; index < 2000; index++) {
      const key = keyOf("/notes", `?q=${index}`) as string;
      const answer = await cache.page(key, VISITOR, async () => page(`search ${index}`));
      expect(answer.kind).toBe("page");
    }
    const { entries, bytes } = cache.size();
    expect(bytes).toBeLessThanOrEqual(maxBytes);
    expect(entries).toBeGreaterThan(0);
    expect(entries).toBeLessThan(2000);
  });

  test("a cached list is served again without a render, with its compressed copies and its own script's hash alone", async () => {
    const cache = createRenderCache(1024 * 1024, createRenderLimiter(1));
    let renders = 0;
    const render = async () => {
      renders++;
      return page("notes");
    };
    const first = await cache.page("/notes?q=x", VISITOR, render);
    const second = await cache.page("/notes?q=x", VISITOR, render);
    expect(renders).toBe(1);
    if (first.kind !== "page" || second.kind !== "page") throw new Error("expected pages");
    expect(second.page).toBe(first.page);
    expect(first.page.contentType).toBe("text/html; charset=utf-8");
    expect(gunzipSync(first.page.bodies.gzip as Buffer).equals(first.page.bodies.identity)).toBe(true);
    expect(first.page.inlineHashes?.scripts).toHaveLength(1);
    expect(first.page.bodies.identity.toString()).not.toContain("nonce");
  });

  test("requests for one filter while it renders wait for that one render", async () => {
    const cache = createRenderCache(1024 * 1024, createRenderLimiter(1));
    const held = gate();
    let renders = 0;
    const render = async () => {
      renders++;
      await held.opened;
      return page("notes");
    };
    const answers = Array.from({ length: 20 }, () => cache.page("/notes?q=x", VISITOR, render));
    held.open();
    const pages = await Promise.all(answers);
    expect(renders).toBe(1);
    expect(pages.every((answer) => answer.kind === "page")).toBe(true);
  });

  test("beyond the concurrency limit a render is refused at once, and the slot is free again afterwards", async () => {
    const limiter = createRenderLimiter(1);
    const cache = createRenderCache(1024 * 1024, limiter);
    const held = gate();
    const slow = cache.page("/notes?q=slow", VISITOR, async () => {
      await held.opened;
      return page("slow");
    });
    expect(limiter.running()).toBe(1);
    const another = "203.0.113.2";
    expect(await cache.page("/notes?q=other", another, async () => page("other"))).toEqual({ kind: "busy" });
    held.open();
    expect((await slow).kind).toBe("page");
    expect(limiter.running()).toBe(0);
    expect((await cache.page("/notes?q=other", VISITOR, async () => page("other"))).kind).toBe("page");
  });

  test("a client's second render waits for its first, while another client renders at once", async () => {
    const limiter = createRenderLimiter(2);
    const cache = createRenderCache(1024 * 1024, limiter);
    const held = gate();
    const order: string[] = [];
    const slow = cache.page("/search?q=slow", "198.51.100.1", async () => {
      await held.opened;
      order.push("slow");
      return page("slow");
    });
    const second = cache.page("/search?q=second", "198.51.100.1", async () => {
      order.push("second");
      return page("second");
    });
    expect((await cache.page("/search?q=other", "198.51.100.2", async () => page("other"))).kind).toBe("page");
    expect(limiter.running()).toBe(1);
    held.open();
    expect([(await slow).kind, (await second).kind]).toEqual(["page", "page"]);
    expect(order).toEqual(["slow", "second"]);
    expect(limiter.running()).toBe(0);
  });

  test("a client's renders beyond the few that may wait, or waiting too long, are refused", async () => {
    const limiter = createRenderLimiter(2, 50);
    const first = await limiter.acquire("198.51.100.1");
    const waiting = Array.from({ length: MAX_WAITING_PER_CLIENT }, () => limiter.acquire("198.51.100.1"));
    expect(await limiter.acquire("198.51.100.1")).toBeNull();
    // Nothing released within the wait: each waiting render is refused.
    expect(await Promise.all(waiting)).toEqual(Array(MAX_WAITING_PER_CLIENT).fill(null));
    first?.();
    expect(limiter.running()).toBe(0);
    expect(await limiter.acquire("198.51.100.1")).toBeTypeOf("function");
  });

  test("a failed render frees its slot and caches nothing", async () => {
    const limiter = createRenderLimiter(1);
    const cache = createRenderCache(1024 * 1024, limiter);
    const broken = async () => new Response("oops", { status: 500, headers: { "Content-Type": "text/html" } });
    await expect(cache.page("/notes?q=x", VISITOR, broken)).rejects.toThrow(/answered 500/);
    expect(limiter.running()).toBe(0);
    expect(cache.size().entries).toBe(0);
  });

  test("RENDER_CONCURRENCY and RENDER_CACHE_MB default to 2 and 32 MB, and a bad value is refused naming the variable", () => {
    const temp = makeTempDir();
    try {
      const defaults = { ownerEmail: "owner@example.com" };
      const config = readConfig({ DATA_DIR: temp.path }, defaults);
      expect([config.renderConcurrency, config.renderCacheBytes]).toEqual([2, 32 * 1024 * 1024]);
      const set = readConfig({ DATA_DIR: temp.path, RENDER_CONCURRENCY: "1", RENDER_CACHE_MB: "8" }, defaults);
      expect([set.renderConcurrency, set.renderCacheBytes]).toEqual([1, 8 * 1024 * 1024]);
      for (const [name, value] of [
        ["RENDER_CONCURRENCY", "0"],
        ["RENDER_CONCURRENCY", "many"],
        ["RENDER_CONCURRENCY", "1.5"],
        ["RENDER_CACHE_MB", "0"],
        ["RENDER_CACHE_MB", "-3"],
      ] as const) {
        const read = () => readConfig({ DATA_DIR: temp.path, [name]: value }, defaults);
        expect(read, `${name}=${value}`).toThrow(ConfigError);
        expect(read, `${name}=${value}`).toThrow(new RegExp(`${name}="${value}" must`));
      }
    } finally {
      temp.remove();
    }
  });
});
