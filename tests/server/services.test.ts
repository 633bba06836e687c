/**
 * The framework-free service layer, as a React Router form action (no JavaScript) would call it:
 * with the fields of a form post. Real database (SQLite or PostgreSQL), outbox writing .eml files.
 */
import { afterEach, beforeEach, expect, test } from "vitest";
import { MESSAGES } from "../../rules/forms.ts";
import type { Backend } from "../../services/backend.ts";
import { sendMessage } from "../../services/contact/send.ts";
import { createRateLimiter } from "../../services/forms/rate-limit.ts";
import { signUp } from "../../services/newsletter/sign-up.ts";
import { makeTempDir, startTestBackend, testConfig } from "./helpers.ts";

let temp: ReturnType<typeof makeTempDir>;
let backend: Backend;

beforeEach(async () => {
  temp = makeTempDir();
  backend = await startTestBackend(testConfig(temp.path), { startOutbox: false });
});

afterEach(async () => {
  await backend.close();
  temp.remove();
});

function form(fields: Record<string, string | Blob>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return Object.fromEntries(data);
}

test("subscribe with the fields of a form post: 201, then 409 with the already-used message", async () => {
  expect(await signUp(backend, form({ email: "reader@example.com" }), "192.0.2.1")).toEqual({
    ok: true,
    status: 201,
  });
  await backend.database.db.updateTable("subscribers").set({ status: "confirmed" }).execute();
  expect(await signUp(backend, form({ email: "READER@example.com" }), "192.0.2.1")).toEqual({
    ok: false,
    status: 409,
    error: "Sorry, this email was already used.",
  });
});

test("subscribe reports the first problem with its field", async () => {
  expect(await signUp(backend, form({ email: "" }), undefined)).toEqual({
    ok: false,
    status: 400,
    error: "Please enter your email.",
    field: "email",
  });
  expect(await signUp(backend, form({ email: "x@y" }), undefined)).toMatchObject({
    status: 400,
    error: "Please enter a valid email.",
  });
});

test("sendMessage reports problems in order and stores a valid message as pending", async () => {
  expect(await sendMessage(backend, form({ email: "a@b.co", subject: "", body: "" }), undefined)).toEqual({
    ok: false,
    status: 400,
    error: "Please enter a subject.",
    field: "subject",
  });
  expect(
    await sendMessage(backend, form({ email: "a@b.co", subject: "Hi", body: "Text", website: "" }), undefined),
  ).toEqual({ ok: true, status: 202 });
  expect(await backend.database.db.selectFrom("messages").select(["status", "email"]).execute()).toEqual([
    { status: "pending", email: "a@b.co" },
  ]);
});

test("a file where text is expected is refused; a non-object input is refused", async () => {
  const withFile = form({ email: "a@b.co", subject: new Blob(["x"]), body: "Text" });
  expect(await sendMessage(backend, withFile, undefined)).toEqual({
    ok: false,
    status: 400,
    error: 'The field "subject" must be a string.',
    field: "subject",
  });
  expect(await sendMessage(backend, null, undefined)).toMatchObject({ status: 400 });
  expect(await signUp(backend, "a@b.co", undefined)).toMatchObject({ status: 400 });
});

test("the honeypot answers success and stores nothing", async () => {
  expect(
    await sendMessage(backend, form({ email: "a@b.co", subject: "s", body: "b", website: "x" }), undefined),
  ).toEqual({ ok: true, status: 202 });
  expect(await backend.database.db.selectFrom("messages").selectAll().execute()).toEqual([]);
});

test("the rate limit is per endpoint and per IP, with retryAfter in seconds", async () => {
  const limited1 = { ...backend, rateLimiter: createRateLimiter({ limit: 1 }) };
  expect((await signUp(limited1, { email: "one@example.com" }, "192.0.2.9")).status).toBe(201);
  const limited = await signUp(limited1, { email: "two@example.com" }, "192.0.2.9");
  expect(limited).toMatchObject({ ok: false, status: 429, error: MESSAGES.rateLimited });
  expect(limited.ok === false && limited.retryAfter).toBeGreaterThan(590);
  expect((await signUp(limited1, { email: "two@example.com" }, "192.0.2.10")).status).toBe(201);
  expect((await sendMessage(limited1, { email: "a@b.co", subject: "s", body: "b" }, "192.0.2.9")).status).toBe(202);
});
