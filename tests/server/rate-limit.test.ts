import { expect, test } from "vitest";
import { createRateLimiter, RATE_WINDOW_MS } from "../../server/rate-limit.ts";

function clock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

test("API1 the limit allows N submissions per key per 10 minutes, then refuses with the seconds to wait", () => {
  const time = clock();
  const limiter = createRateLimiter({ limit: 3, now: time.now });
  expect(limiter.hit("ip")).toEqual({ allowed: true });
  time.advance(60_000);
  expect(limiter.hit("ip")).toEqual({ allowed: true });
  expect(limiter.hit("ip")).toEqual({ allowed: true });
  expect(limiter.hit("ip")).toEqual({ allowed: false, retryAfterSeconds: 540 });
  expect(limiter.hit("other")).toEqual({ allowed: true });
  time.advance(540_000);
  // The first submission left the window: one more is allowed, and refused ones were not counted.
  expect(limiter.hit("ip")).toEqual({ allowed: true });
  expect(limiter.hit("ip")).toEqual({ allowed: false, retryAfterSeconds: 60 });
  time.advance(RATE_WINDOW_MS);
  expect(limiter.hit("ip")).toEqual({ allowed: true });
});

test("API1 a limit of 0 turns the limiter off", () => {
  const limiter = createRateLimiter({ limit: 0 });
  for (let index = 0; index < 1000; index++) expect(limiter.hit("ip").allowed).toBe(true);
  expect(limiter.size).toBe(0);
});

test("API1 the number of remembered keys is bounded, the least recently seen forgotten first", () => {
  const time = clock();
  const limiter = createRateLimiter({ limit: 1, maxKeys: 100, now: time.now });
  expect(limiter.hit("keep").allowed).toBe(true);
  for (let index = 0; index < 10_000; index++) {
    if (index % 50 === 0) expect(limiter.hit("keep").allowed).toBe(false);
    limiter.hit(`ip-${index}`);
  }
  expect(limiter.size).toBe(100);
  expect(limiter.hit("keep").allowed).toBe(false);
  expect(limiter.hit("ip-0").allowed).toBe(true);
});
