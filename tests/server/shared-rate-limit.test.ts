/**
 * The rate limit counted in the database (what instances sharing PostgreSQL use), on the engine
 * of the vitest project: the same sliding window as the in-memory limiter, rows that leave after
 * one window, and a backend on PostgreSQL that limits through it.
 */
import { afterEach, beforeEach, expect, test } from "vitest";
import type { Database } from "../../services/db/database.ts";
import { createDatabaseRateLimiter, RATE_WINDOW_MS } from "../../services/forms/rate-limit.ts";
import { signUp } from "../../services/newsletter/sign-up.ts";
import { BACKEND, databaseConfig, makeTempDir, openTestDatabase, startTestBackend } from "./helpers.ts";

let temp: ReturnType<typeof makeTempDir>;
let database: Database;

beforeEach(async () => {
  temp = makeTempDir();
  database = await openTestDatabase(await databaseConfig(temp.path));
});

afterEach(async () => {
  await database.close();
  temp.remove();
});

function clock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const hits = () => database.db.selectFrom("rate_limit_hits").select(["key", "at"]).orderBy("at").execute();

test("the database limit allows N submissions per key per 10 minutes, then refuses with the seconds to wait", async () => {
  const time = clock();
  const limiter = createDatabaseRateLimiter(database.db, { limit: 3, now: time.now });
  expect(await limiter.hit("ip")).toEqual({ allowed: true });
  time.advance(60_000);
  expect(await limiter.hit("ip")).toEqual({ allowed: true });
  expect(await limiter.hit("ip")).toEqual({ allowed: true });
  expect(await limiter.hit("ip")).toEqual({ allowed: false, retryAfterSeconds: 540 });
  expect(await limiter.hit("other")).toEqual({ allowed: true });
  time.advance(540_000);
  // The first submission left the window: one more is allowed, and refused ones were not counted.
  expect(await limiter.hit("ip")).toEqual({ allowed: true });
  expect(await limiter.hit("ip")).toEqual({ allowed: false, retryAfterSeconds: 60 });
  time.advance(RATE_WINDOW_MS);
  expect(await limiter.hit("ip")).toEqual({ allowed: true });
});

test("counted submissions leave the table after one window, also for keys that never return", async () => {
  const time = clock();
  const limiter = createDatabaseRateLimiter(database.db, { limit: 2, now: time.now });
  for (let index = 0; index < 50; index++) await limiter.hit(`visitor ${index}`);
  expect(await hits()).toHaveLength(50);
  time.advance(RATE_WINDOW_MS);
  await limiter.hit("late visitor");
  expect(await hits()).toEqual([{ key: "late visitor", at: time.now() }]);
});

test("a limit of 0 turns the database limit off and stores nothing", async () => {
  const limiter = createDatabaseRateLimiter(database.db, { limit: 0 });
  for (let index = 0; index < 20; index++) expect((await limiter.hit("ip")).allowed).toBe(true);
  expect(await hits()).toEqual([]);
});

test("the backend counts in the database exactly when it runs on PostgreSQL", async () => {
  const backend = await startTestBackend(await databaseConfig(temp.path, { rateLimit: 1 }), { startOutbox: false });
  try {
    expect((await signUp(backend, { email: "one@example.com" }, "192.0.2.9")).status).toBe(201);
    expect((await signUp(backend, { email: "two@example.com" }, "192.0.2.9")).status).toBe(429);
    const counted = await backend.database.db.selectFrom("rate_limit_hits").select("key").execute();
    expect(counted).toEqual(BACKEND === "postgres" ? [{ key: "user 192.0.2.9" }] : []);
  } finally {
    await backend.close();
  }
});
