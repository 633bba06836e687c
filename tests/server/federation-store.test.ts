/** Fedify's key–value store and message queue over the project's database (SQLite file or PostgreSQL). */
import type { KvStoreSetOptions } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Config } from "../../services/config.ts";
import { connectDatabase, type Database } from "../../services/db/database.ts";
import { createKvStore } from "../../services/federation/kv.ts";
import { type Change, type Publication, publishChanges } from "../../services/federation/publish.ts";
import { createMessageQueue } from "../../services/federation/queue.ts";
import { databaseConfig, makeTempDir, sleep, waitFor } from "./helpers.ts";

/** Fedify's types name the standard Temporal, which Node 24 lacks; Fedify runs on this polyfill. */
const duration = (like: Temporal.DurationLike) =>
  Temporal.Duration.from(like) as unknown as NonNullable<KvStoreSetOptions["ttl"]>;

let temp: ReturnType<typeof makeTempDir>;
let config: Config;
const opened: Database[] = [];
const open = async () => {
  const database = await connectDatabase(config);
  opened.push(database);
  return database;
};

beforeEach(async () => {
  temp = makeTempDir();
  config = await databaseConfig(temp.path);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((database) => database.close()));
  temp.remove();
});

describe("the key–value store", () => {
  test("keeps JSON values by key, lists a prefix's keys only and forgets deleted ones", async () => {
    const kv = createKvStore((await open()).db);
    await kv.set(["a", "b"], { n: 1 });
    await kv.set(["a", "b", "c"], [1, 2]);
    await kv.set(["a", "bc"], "not below a/b");
    await kv.set(["a%", "_"], "wildcards are plain text");
    expect(await kv.get(["a", "b"])).toEqual({ n: 1 });
    const listed = [];
    for await (const entry of kv.list(["a", "b"])) listed.push(entry.key.join("/"));
    expect(listed.sort()).toEqual(["a/b", "a/b/c"]);
    await kv.delete(["a", "b"]);
    expect(await kv.get(["a", "b"])).toBeUndefined();
    expect(await kv.get(["a%", "_"])).toBe("wildcards are plain text");
  });

  test("a value with a time to live is gone after it", async () => {
    let now = 1_000;
    const kv = createKvStore((await open()).db, () => now);
    await kv.set(["cache"], "fresh", { ttl: duration({ seconds: 5 }) });
    expect(await kv.get(["cache"])).toBe("fresh");
    now += 6_000;
    expect(await kv.get(["cache"])).toBeUndefined();
  });

  test("compare-and-swap changes a value only from the expected one, and creates it only once", async () => {
    const [first, second] = [createKvStore((await open()).db), createKvStore((await open()).db)];
    const created = await Promise.all([
      first.cas?.(["keys"], undefined, "one"),
      second.cas?.(["keys"], undefined, "two"),
    ]);
    expect(created.filter(Boolean)).toHaveLength(1);
    const kept = await first.get<string>(["keys"]);
    expect(await second.cas?.(["keys"], "something else", "three")).toBe(false);
    expect(await second.cas?.(["keys"], kept, "three")).toBe(true);
    expect(await first.get(["keys"])).toBe("three");
  });
});

describe("the message queue", () => {
  test("of two instances listening, each message is handled by one only", async () => {
    const handled: number[] = [];
    const stop = new AbortController();
    const instances = [await open(), await open()];
    for (const database of instances) {
      void createMessageQueue(database.db, { pollMs: 20, workers: 4 }).listen(
        async (message: { n: number }) => {
          await sleep(5);
          handled.push(message.n);
        },
        { signal: stop.signal },
      );
    }
    await createMessageQueue(instances[0]?.db as Database["db"]).enqueueMany?.(
      Array.from({ length: 100 }, (_, n) => ({ n })),
    );
    await waitFor(() => handled.length >= 100, { timeoutMs: 30_000, what: "100 messages handled" });
    await sleep(200);
    stop.abort();
    expect(handled.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, n) => n));
  });

  test("a message enqueued before a restart is handled after it, and a delayed one waits its delay", async () => {
    const before = await open();
    await createMessageQueue(before.db).enqueue({ kept: true });
    await createMessageQueue(before.db).enqueue({ later: true }, { delay: duration({ hours: 1 }) });
    await before.close();

    const after = await open();
    const queue = createMessageQueue(after.db, { pollMs: 20 });
    const handled: unknown[] = [];
    const stop = new AbortController();
    const listening = queue.listen((message) => void handled.push(message), { signal: stop.signal });
    await waitFor(() => handled.length === 1, { what: "the kept message" });
    await sleep(200);
    stop.abort();
    await listening;
    expect(handled).toEqual([{ kept: true }]);
    expect(await queue.getDepth?.()).toEqual({ queued: 1, ready: 0, delayed: 1 });
  });

  test("a handler that throws gets its message back, tried again later", async () => {
    const database = await open();
    const queue = createMessageQueue(database.db, { pollMs: 10, log: () => {} });
    await queue.enqueue({ flaky: true });
    let attempts = 0;
    const stop = new AbortController();
    const listening = queue.listen(
      () => {
        attempts++;
        if (attempts === 1) throw new Error("the first attempt fails");
      },
      { signal: stop.signal },
    );
    await waitFor(() => attempts === 2, { what: "the second attempt" });
    stop.abort();
    await listening;
    expect(await queue.getDepth?.()).toMatchObject({ queued: 0 });
  });
});

describe("what is sent to followers", () => {
  const essay: Publication = { path: "/write/one", type: "Article", name: "One", html: "<p>One</p>" };
  const note: Publication = { path: "/notes/two", type: "Note", name: "Two", html: "<p>Two</p>" };
  const deps = (sent: Change[], { live = true, followers = true } = {}) => ({
    isLive: async () => live,
    hasFollowers: async () => followers,
    send: async (change: Change) => void sent.push(change),
  });

  test("of two instances publishing the same build, each item is sent once", async () => {
    const sent: Change[] = [];
    const [a, b] = [await open(), await open()];
    await Promise.all([
      publishChanges(a.db, [essay, note], deps(sent)),
      publishChanges(b.db, [essay, note], deps(sent)),
    ]);
    expect(sent.map((change) => `${change.kind} ${change.publication.path}`).sort()).toEqual([
      "create /notes/two",
      "create /write/one",
    ]);
    await publishChanges(a.db, [essay, note], deps(sent));
    expect(sent).toHaveLength(2);
  });

  test("with no follower yet, a build's items are recorded and nothing is sent", async () => {
    const sent: Change[] = [];
    const database = await open();
    await publishChanges(database.db, [essay], deps(sent, { followers: false }));
    await publishChanges(database.db, [essay], deps(sent));
    expect(sent).toEqual([]);
  });

  test("an item whose page is not live yet waits, and is sent once it is", async () => {
    const sent: Change[] = [];
    const database = await open();
    expect((await publishChanges(database.db, [essay], deps(sent, { live: false }))).waiting).toBe(1);
    expect(sent).toEqual([]);
    expect((await publishChanges(database.db, [essay], deps(sent))).waiting).toBe(0);
    expect(sent.map((change) => change.kind)).toEqual(["create"]);
  });

  test("an edit is an update and a removal a delete, once the page is gone", async () => {
    const sent: Change[] = [];
    const database = await open();
    await publishChanges(database.db, [essay], deps(sent));
    await publishChanges(database.db, [{ ...essay, html: "<p>One, edited</p>" }], deps(sent));
    expect((await publishChanges(database.db, [], deps(sent, { live: true }))).waiting).toBe(1);
    await publishChanges(database.db, [], deps(sent, { live: false }));
    expect(sent.map((change) => change.kind)).toEqual(["create", "update", "delete"]);
  });
});
