/**
 * The JSON API, rule by rule: the real app served on a free port, a real database
 * (a SQLite file in a fresh folder, or a fresh database on a real PostgreSQL server), a real SMTP server.
 */
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { API_ERRORS } from "../../host/api.ts";
import { MESSAGES } from "../../rules/forms.ts";
import type { Config } from "../../services/config.ts";
import {
  makeTempDir,
  OWNER,
  postJson,
  readAnswer,
  type Served,
  SITE_URL,
  type SmtpRecorder,
  serveApp,
  sleep,
  startSmtp,
  startTestBackend,
  type TestBackend,
  testConfig,
  waitFor,
} from "./helpers.ts";

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let backend: TestBackend;
let served: Served;

async function start(overrides: Partial<Config> = {}) {
  backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url, ...overrides }));
  served = await serveApp(backend.api);
}

beforeEach(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
});

afterEach(async () => {
  await served?.close();
  await backend?.close();
  await smtp.stop();
  temp.remove();
});

const user = (body: unknown, options?: Parameters<typeof postJson>[2]) =>
  postJson(`${served.url}/api/user`, body, options);
const email = (body: unknown, options?: Parameters<typeof postJson>[2]) =>
  postJson(`${served.url}/api/email`, body, options);

const subscribers = () =>
  backend.database.db.selectFrom("subscribers").select(["email", "email_lower"]).orderBy("id").execute();
/** The person confirms from the mail (double opt-in): from then on the email counts as used. */
const confirmEveryone = () =>
  backend.database.db.updateTable("subscribers").set({ status: "confirmed" }).where("status", "=", "pending").execute();
const messages = () => backend.database.db.selectFrom("messages").selectAll().orderBy("id").execute();

const letter = { email: "reader@example.com", subject: "About your notes", body: "Thank you for the notes." };

function expectJson(answer: { headers: Headers }) {
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
}

describe("POST /api/user", () => {
  beforeEach(() => start());

  test("a valid email is subscribed: 201 {ok:true}, one row", async () => {
    const answer = await user({ email: "reader@example.com" });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ ok: true });
    expectJson(answer);
    expect(await subscribers()).toEqual([{ email: "reader@example.com", email_lower: "reader@example.com" }]);
  });

  test("the same email again answers 409 'Sorry, this email was already used.'", async () => {
    expect((await user({ email: "reader@example.com" })).status).toBe(201);
    await confirmEveryone();
    const again = await user({ email: "reader@example.com" });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ error: "Sorry, this email was already used." });
    expectJson(again);
  });

  test("uniqueness ignores letter case and surrounding spaces; the email is stored trimmed", async () => {
    expect((await user({ email: "  Reader@Example.com  " })).status).toBe(201);
    await confirmEveryone();
    expect((await user({ email: "reader@EXAMPLE.COM" })).status).toBe(409);
    expect((await user({ email: "READER@example.com " })).status).toBe(409);
    expect(await subscribers()).toEqual([{ email: "Reader@Example.com", email_lower: "reader@example.com" }]);
  });

  test("an empty or missing email answers 400 'Please enter your email.' for the field email", async () => {
    for (const body of [{ email: "" }, { email: "   " }, {}]) {
      const answer = await user(body);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: "Please enter your email.", field: "email" });
    }
  });

  test("an invalid email answers 400 'Please enter a valid email.'", async () => {
    const answer = await user({ email: "not-an-email" });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: "Please enter a valid email.", field: "email" });
    expect(await subscribers()).toEqual([]);
  });

  test("an email over 254 characters answers 400", async () => {
    const answer = await user({ email: `${"a".repeat(250)}@example.com` });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: MESSAGES.emailTooLong, field: "email" });
  });

  test("50 concurrent sign-ups of one new email: one row, one confirmation mail, every answer 201 (pending)", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => user({ email: index % 2 ? "Race@Example.com" : "race@example.com" })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(201));
    expect(await subscribers()).toHaveLength(1);
    await waitFor(() => smtp.received.length === 1, { what: "the confirmation mail" });
    await sleep(200);
    expect(smtp.received).toHaveLength(1);
  });

  test("50 concurrent sign-ups of one confirmed email: 50 × 409, still one row", async () => {
    expect((await user({ email: "race@example.com" })).status).toBe(201);
    await confirmEveryone();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => user({ email: index % 2 ? "Race@Example.com" : "race@example.com" })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(409));
    expect(await subscribers()).toHaveLength(1);
  });

  test("a filled honeypot answers 201 and stores nothing", async () => {
    const answer = await user({ email: "bot@example.com", website: "http://spam.example" });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ ok: true });
    expect(await subscribers()).toEqual([]);
    // Even an invalid email gets the success answer: the bot learns nothing.
    expect((await user({ email: "junk", website: "x" })).status).toBe(201);
    expect(await subscribers()).toEqual([]);
  });

  test("an empty honeypot is ignored", async () => {
    expect((await user({ email: "reader@example.com", website: "" })).status).toBe(201);
    expect(await subscribers()).toHaveLength(1);
  });
});

describe("POST /api/email", () => {
  beforeEach(() => start());

  test("a valid message answers 202 {ok:true}, is stored before the answer and delivered to the owner", async () => {
    const answer = await email(letter);
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual({ ok: true });
    expectJson(answer);
    const rows = await messages();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: letter.email, subject: letter.subject, body: letter.body });
    const mail = await waitFor(() => smtp.received[0], { what: "the mail" });
    expect(mail.envelope.to).toEqual([OWNER]);
    expect(mail.parsed.subject).toBe(letter.subject);
    expect(mail.parsed.text?.trim()).toBe(letter.body);
    expect(mail.parsed.replyTo?.value[0]?.address).toBe(letter.email);
    expect(mail.parsed.messageId).toBe(rows[0]?.message_id);
  });

  test("each missing field answers 400 with its message, in the order of the form", async () => {
    const cases: [object, string, string][] = [
      [{}, "Please enter your email.", "email"],
      [{ email: "", subject: "s", body: "b" }, "Please enter your email.", "email"],
      [{ email: "nope", subject: "", body: "" }, "Please enter a valid email.", "email"],
      [{ email: letter.email, subject: " ", body: "" }, "Please enter a subject.", "subject"],
      [{ email: letter.email, subject: "Hi" }, "Please enter a message.", "body"],
    ];
    for (const [body, error, field] of cases) {
      const answer = await email(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json).toEqual({ error, field });
    }
    expect(await messages()).toEqual([]);
  });

  test("a subject with CR or LF answers 400 and nothing is stored or sent", async () => {
    for (const subject of ["Hi\r\nBcc: victim@example.com", "Hi\nthere", "Hi\rthere", "Trailing\n"]) {
      const answer = await email({ ...letter, subject });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: MESSAGES.subjectMultiline, field: "subject" });
    }
    expect(await messages()).toEqual([]);
  });

  test("limits: subject over 200 characters and message over 5,000 answer 400", async () => {
    expect((await email({ ...letter, subject: "s".repeat(201) })).json).toEqual({
      error: MESSAGES.subjectTooLong,
      field: "subject",
    });
    expect((await email({ ...letter, body: "b".repeat(5001) })).json).toEqual({
      error: MESSAGES.messageTooLong,
      field: "body",
    });
    expect((await email({ ...letter, subject: "s".repeat(200), body: "b".repeat(5000) })).status).toBe(202);
  });

  test("email and subject are stored trimmed", async () => {
    expect((await email({ email: "  reader@example.com ", subject: "  Hi  ", body: "Text" })).status).toBe(202);
    expect((await messages())[0]).toMatchObject({ email: "reader@example.com", subject: "Hi", body: "Text" });
  });

  test("a filled honeypot answers 202 and nothing is stored or sent", async () => {
    const answer = await email({ ...letter, website: "spam" });
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual({ ok: true });
    await sleep(150);
    expect(await messages()).toEqual([]);
    expect(smtp.received).toEqual([]);
  });
});

describe("request checks", () => {
  beforeEach(() => start());

  test("a body that is not JSON by content type answers 415", async () => {
    for (const contentType of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=latin1",
      "application/jsonx",
    ]) {
      const answer = await readAnswer(
        await fetch(`${served.url}/api/user`, {
          method: "POST",
          headers: { "content-type": contentType, origin: SITE_URL },
          body: JSON.stringify({ email: "reader@example.com" }),
        }),
      );
      expect(answer.status, contentType).toBe(415);
      expect(answer.json).toEqual({ error: API_ERRORS.notJson });
      expectJson(answer);
    }
    const missing = await readAnswer(
      await fetch(`${served.url}/api/email`, {
        method: "POST",
        body: new TextEncoder().encode(JSON.stringify(letter)),
      }),
    );
    expect(missing.status).toBe(415);
    expect(await subscribers()).toEqual([]);
    expect(await messages()).toEqual([]);
  });

  test("a JSON body with a charset parameter is accepted", async () => {
    const answer = await user(
      { email: "reader@example.com" },
      { headers: { "content-type": "application/json; charset=UTF-8" } },
    );
    expect(answer.status).toBe(201);
  });

  test("malformed JSON answers 400 with a clear error", async () => {
    for (const body of ["{", '{"email": }', "", "{'email': 'a@b.co'}", '{"email":"a@b.co",}']) {
      const answer = await readAnswer(
        await fetch(`${served.url}/api/email`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      );
      expect(answer.status, body).toBe(400);
      expect(answer.json).toEqual({ error: API_ERRORS.badJson });
    }
  });

  test("a JSON body that is not an object, or a field of the wrong type, answers 400", async () => {
    for (const body of [null, [], ["a@b.co"], "reader@example.com", 42, true]) {
      const answer = await user(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json).toEqual({ error: "The request body must be a JSON object." });
    }
    for (const value of [null, 1, ["a@b.co"], { address: "a@b.co" }, false]) {
      const answer = await user({ email: value });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: 'The field "email" must be a string.', field: "email" });
    }
    const surrogate = await email({ ...letter, body: "half a pair: \ud800" });
    expect(surrogate.json).toEqual({ error: 'The field "body" must be valid Unicode text.', field: "body" });
    const subject = await email({ ...letter, subject: 5 });
    expect(subject.json).toEqual({ error: 'The field "subject" must be a string.', field: "subject" });
  });

  test("a body over 16 KB with a Content-Length answers 413", async () => {
    const body = JSON.stringify({ ...letter, body: "x".repeat(17 * 1024) });
    const answer = await readAnswer(
      await fetch(`${served.url}/api/email`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
        body,
      }),
    );
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: API_ERRORS.tooLarge });
    expect(await messages()).toEqual([]);
  });

  test("a chunked body over 16 KB without a Content-Length answers 413", async () => {
    const chunk = new TextEncoder().encode("x".repeat(1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"email":"a@b.co","subject":"s","body":"'));
        if (sent >= 64) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${served.url}/api/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const answer = await readAnswer(response);
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: API_ERRORS.tooLarge });
    expect(await messages()).toEqual([]);
  });

  test("a chunked body under 16 KB is accepted", async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(letter));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const response = await fetch(`${served.url}/api/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SITE_URL },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(202);
  });

  test("a cross-site request answers 403: Sec-Fetch-Site cross-site, a foreign Origin, or Origin null", async () => {
    const cases: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "cross-site", origin: SITE_URL },
      { origin: "https://evil.example" },
      { origin: "http://localhost:3001" },
      { origin: "https://localhost:3000" },
      { origin: "null" },
    ];
    for (const headers of cases) {
      const answer = await postJson(
        `${served.url}/api/user`,
        { email: "reader@example.com" },
        { headers, origin: null },
      );
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.json).toEqual({ error: API_ERRORS.crossSite });
      const contact = await postJson(`${served.url}/api/email`, letter, { headers, origin: null });
      expect(contact.status).toBe(403);
    }
    expect(await subscribers()).toEqual([]);
    expect(await messages()).toEqual([]);
  });

  test("same-origin requests and requests without Origin are allowed", async () => {
    expect((await user({ email: "a@example.com" }, { headers: { "sec-fetch-site": "same-origin" } })).status).toBe(201);
    expect((await user({ email: "b@example.com" }, { origin: null })).status).toBe(201);
    expect(
      (await user({ email: "c@example.com" }, { headers: { "sec-fetch-site": "none" }, origin: null })).status,
    ).toBe(201);
  });

  test("other methods on the API paths answer 405 with Allow: POST; unknown API paths a JSON 404", async () => {
    for (const [method, path] of [
      ["GET", "/api/user"],
      ["PUT", "/api/user"],
      ["DELETE", "/api/email"],
      ["PATCH", "/api/email"],
      ["OPTIONS", "/api/email"],
    ] as const) {
      const answer = await readAnswer(await fetch(`${served.url}${path}`, { method }));
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.get("allow")).toBe("POST");
      expect(answer.json).toEqual({ error: API_ERRORS.method });
    }
    const missing = await readAnswer(await fetch(`${served.url}/api/nothing`, { method: "POST" }));
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: "Not found." });
  });
});

describe("rate limit", () => {
  beforeEach(() => start({ rateLimit: 2 }));

  test("over the per-IP limit answers 429 with Retry-After; other IPs and the other endpoint are not affected", async () => {
    const ip = { "x-test-ip": "203.0.113.7" };
    expect((await user({ email: "one@example.com" }, { headers: ip })).status).toBe(201);
    await confirmEveryone();
    expect((await user({ email: "one@example.com" }, { headers: ip })).status).toBe(409);
    const limited = await user({ email: "three@example.com" }, { headers: ip });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ error: MESSAGES.rateLimited });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expectJson(limited);
    expect(await subscribers()).toHaveLength(1);

    expect((await user({ email: "three@example.com" }, { headers: { "x-test-ip": "203.0.113.8" } })).status).toBe(201);
    expect((await email(letter, { headers: ip })).status).toBe(202);
  });

  test("the contact endpoint has its own limit; invalid submissions do not count", async () => {
    const ip = { "x-test-ip": "198.51.100.1" };
    for (let index = 0; index < 5; index++) expect((await email({}, { headers: ip })).status).toBe(400);
    expect((await email(letter, { headers: ip })).status).toBe(202);
    expect((await email(letter, { headers: ip })).status).toBe(202);
    const limited = await email(letter, { headers: ip });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await messages()).toHaveLength(2);
  });
});

describe("unexpected failures", () => {
  beforeEach(() => start());

  test("a message that cannot be stored answers 500 'Sorry, email failed to send.', no internals", async () => {
    await backend.outbox.stop();
    // The table is gone: every insert fails, on either engine.
    await sql`ALTER TABLE messages RENAME TO messages_lost`.execute(backend.database.db);
    const answer = await email(letter);
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ error: "Sorry, email failed to send." });
    expect(answer.text).not.toMatch(/database|sqlite|postgres|relation|messages_lost|\.ts|stack|not open|TypeError/i);
    expect(backend.logs.join("\n")).toMatch(/storing a contact message failed/);
  });

  test("a sign-up that fails on the server answers 500 without claiming the email was used", async () => {
    await backend.outbox.stop();
    await sql`ALTER TABLE subscribers RENAME TO subscribers_lost`.execute(backend.database.db);
    const answer = await user({ email: "reader@example.com" });
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ error: MESSAGES.serverError });
    expect(answer.text).not.toContain("already used");
  });
});

describe("unexpected errors in the HTTP layer", () => {
  test("an exception answers 500 with the generic message and is logged, never shown", async () => {
    backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url }), {
      clientIp: () => {
        throw new Error("secret internal detail");
      },
    });
    served = await serveApp(backend.api);
    const answer = await user({ email: "reader@example.com" });
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ error: "Something went wrong. Please try again." });
    expect(answer.text).not.toContain("secret");
    expectJson(answer);
    expect(backend.logs.join("\n")).toContain("secret internal detail");
  });
});
