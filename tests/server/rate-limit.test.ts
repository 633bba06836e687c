import { expect, test } from "vitest";
import { createRateLimiter, RATE_WINDOW_MS } from "../../services/forms/rate-limit.ts";

function clock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

test("the limit allows N submissions per key per 10 minutes, then refuses with the seconds to wait", async () => {
  const time = clock();
  const limiter = createRateLimiter({ limit: 3, now: time.now });
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

test("a limit of 0 turns the limiter off", async () => {
  const limiter = createRateLimiter({ limit: 0 });
  for (let index = 0; index < 1000; index++) expect((await limiter.hit("ip")).allowed).toBe(true);
  expect(limiter.size).toBe(0);
});

test("the number of remembered keys is bounded, the least recently seen forgotten first", async () => {
  const time = clock();
  const limiter = createRateLimiter({ limit: 1, maxKeys: 100, now: time.now });
  expect((await limiter.hit("keep")).allowed).toBe(true);
  for (let index = 0; index < 10_000; index++) {
    if (index % 50 === 0) expect((await limiter.hit("keep")).allowed).toBe(false);
    await limiter.hit(`ip-${index}`);
  }
  expect(limiter.size).toBe(100);
  expect((await limiter.hit("keep")).allowed).toBe(false);
  expect((await limiter.hit("ip-0")).allowed).toBe(true);
});
