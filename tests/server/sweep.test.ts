/**
 * A sweep of malformed requests, generated from a fixed seed (so every run sends the same ones):
 * wrong types, missing fields, null, arrays, nested objects, huge strings, numbers, invalid UTF-8,
 * wrong or missing content types, empty and truncated bodies, duplicate keys, prototype keys.
 * Every answer must be a 4xx with a JSON {error}; never a 5xx; nothing stored or sent; and the
 * server must still serve a valid request afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { confirmationMail } from "../../services/newsletter/mail.ts";
import { type SeededRandom, seededRandom } from "../support/random.ts";
import {
  makeTempDir,
  postJson,
  type Served,
  SITE_URL,
  type SmtpRecorder,
  serveApp,
  startSmtp,
  startTestBackend,
  type TestBackend,
  testConfig,
} from "./helpers.ts";

type BadRequest = { kind: string; contentType: string | null; body: Uint8Array<ArrayBuffer> };

const encoder = new TextEncoder();
const JSON_TYPE = "application/json";

const VALID_EMAIL = "visitor@example.org";

/** Values that are not strings. */
function notAString(random: SeededRandom, depth = 0): unknown {
  const choices: (() => unknown)[] = [
    () => null,
    () => random.int(1_000_000) - 500_000,
    () => random.next() * 1e308,
    () => random.next() < 0.5,
    () => [],
    () => [VALID_EMAIL],
    () => ({}),
    () => ({ address: VALID_EMAIL }),
    () => ({ __proto__: { email: VALID_EMAIL } }),
    () => (depth < 3 ? [notAString(random, depth + 1), notAString(random, depth + 1)] : 0),
    () => (depth < 3 ? { value: notAString(random, depth + 1) } : false),
  ];
  return random.pick(choices)();
}

/** Strings that are not a valid value for the field. */
function badString(random: SeededRandom, field: string): string {
  const huge = () => random.pick(["a", "é", "\u{1F600}", " ", "\n", "<", "\u0000"]).repeat(1000 + random.int(7000));
  if (field === "email") {
    return random.pick([
      () => "",
      () => "   ",
      () => "no-at-sign",
      () => "a@b",
      () => "a@b.c",
      () => "@example.com",
      () => "a b@example.com",
      () => "a@@example.com",
      () => `${"x".repeat(300)}@example.com`,
      () => `${VALID_EMAIL}\r\nBcc: victim@example.com`,
      () => "\ud800@example.com",
      () => huge(),
      () => `${huge()}@example.com`,
    ])();
  }
  if (field === "subject") {
    return random.pick([
      () => "",
      () => " \t ",
      () => "Line\r\nBcc: victim@example.com",
      () => "Line\nbreak",
      () => "\u2028",
      () => "s".repeat(201 + random.int(2000)),
      () => "nul\u0000byte",
    ])();
  }
  return random.pick([() => "", () => "  \n ", () => "b".repeat(5001 + random.int(3000))])();
}

function bytes(text: string) {
  return encoder.encode(text);
}

/** One generated malformed request for an endpoint whose fields are `fields`. */
function generate(random: SeededRandom, fields: readonly string[]): BadRequest {
  const validObject = (): Record<string, unknown> =>
    Object.fromEntries(fields.map((field) => [field, field === "email" ? VALID_EMAIL : `Some ${field}`]));
  const json = (value: unknown) => bytes(JSON.stringify(value));
  const makers: (() => BadRequest)[] = [
    // The whole body is not an object.
    () => ({ kind: "non-object", contentType: JSON_TYPE, body: json(notAString(random)) }),
    () => ({ kind: "string body", contentType: JSON_TYPE, body: json(VALID_EMAIL) }),
    () => ({ kind: "array of objects", contentType: JSON_TYPE, body: json([validObject()]) }),
    // A field of the wrong type.
    () => {
      const value = validObject();
      value[random.pick(fields)] = notAString(random);
      return { kind: "wrong type", contentType: JSON_TYPE, body: json(value) };
    },
    // A field missing.
    () => {
      const value = validObject();
      delete value[random.pick(fields)];
      return { kind: "missing field", contentType: JSON_TYPE, body: json(value) };
    },
    () => ({ kind: "empty object", contentType: JSON_TYPE, body: json({}) }),
    // A field with a bad or oversized string.
    () => {
      const value = validObject();
      const field = random.pick(fields);
      value[field] = badString(random, field);
      return { kind: "bad string", contentType: JSON_TYPE, body: json(value) };
    },
    // A honeypot of the wrong type.
    () => ({
      kind: "honeypot type",
      contentType: JSON_TYPE,
      body: json({ ...validObject(), website: notAString(random) }),
    }),
    // Over 16 KB.
    () => ({
      kind: "too large",
      contentType: JSON_TYPE,
      body: json({ ...validObject(), padding: "x".repeat(16 * 1024 + random.int(50_000)) }),
    }),
    // Invalid UTF-8.
    () => {
      const prefix = bytes(`{"email":"`);
      const invalid = random.pick([
        [0xff],
        [0xc3, 0x28],
        [0xed, 0xa0, 0x80],
        [0xe2, 0x82],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
      ]);
      const suffix = bytes(`@example.org"}`);
      return {
        kind: "invalid utf-8",
        contentType: JSON_TYPE,
        body: new Uint8Array([...prefix, ...invalid, ...suffix]),
      };
    },
    // Wrong or missing content type.
    () => ({
      kind: "content type",
      contentType: random.pick([
        null,
        "",
        "text/plain",
        "text/json",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=abc",
        "application/json; charset=iso-8859-1",
        "application/json-patch+json",
        "application/xml",
        "*/*",
      ]),
      body: json(validObject()),
    }),
    // Empty body.
    () => ({ kind: "empty body", contentType: JSON_TYPE, body: new Uint8Array(0) }),
    // Truncated JSON: any strict prefix of an object is invalid.
    () => {
      const full = JSON.stringify(validObject());
      return { kind: "truncated", contentType: JSON_TYPE, body: bytes(full.slice(0, random.int(full.length))) };
    },
    // Not JSON at all.
    () => ({
      kind: "not json",
      contentType: JSON_TYPE,
      body: bytes(
        random.pick([
          "NaN",
          "undefined",
          "{email: 'a@b.co'}",
          "{'email':'a@b.co'}",
          '{"email":"a@b.co",}',
          '{"email":"a@b.co"} trailing',
          "/* comment */ {}",
          "email=a@b.co",
          "\u0000",
          "[",
          "]",
          '"unterminated',
        ]),
      ),
    }),
    // Duplicate keys: the last one wins, and it is bad.
    () => {
      const field = random.pick(fields);
      const good = JSON.stringify(validObject()).slice(0, -1);
      const last = random.next() < 0.5 ? JSON.stringify(notAString(random)) : JSON.stringify(badString(random, field));
      return { kind: "duplicate key", contentType: JSON_TYPE, body: bytes(`${good},"${field}":${last}}`) };
    },
    // Prototype keys never count as fields.
    () => ({
      kind: "prototype keys",
      contentType: JSON_TYPE,
      body: bytes(
        random.pick([
          `{"__proto__":${JSON.stringify(validObject())}}`,
          `{"constructor":{"prototype":${JSON.stringify(validObject())}}}`,
          `{"__proto__":{"email":"${VALID_EMAIL}"},"prototype":{}}`,
          `{"toString":"x","hasOwnProperty":"y","valueOf":1}`,
        ]),
      ),
    }),
    // Deep nesting.
    () => {
      const depth = 1000 + random.int(6000);
      const open = random.next() < 0.5 ? "[" : '{"a":';
      const close = open === "[" ? "]" : "}";
      return {
        kind: "deep nesting",
        contentType: JSON_TYPE,
        body: bytes(`{"email":${open.repeat(depth)}1${close.repeat(depth)}}`),
      };
    },
    // Random bytes.
    () => {
      const length = random.int(200);
      const noise = new Uint8Array(length);
      for (let index = 0; index < length; index++) noise[index] = random.int(256);
      return { kind: "random bytes", contentType: JSON_TYPE, body: noise };
    },
  ];
  return random.pick(makers)();
}

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let backend: TestBackend;
let served: Served;

beforeAll(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
  // The default rate limit: malformed and invalid submissions must not use it up.
  backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url, rateLimit: 5 }));
  served = await serveApp(backend.api);
});

afterAll(async () => {
  await served?.close();
  await backend?.close();
  await smtp?.stop();
  temp?.remove();
});

async function sweep(path: string, fields: readonly string[], seed: number, count: number) {
  const random = seededRandom(seed);
  const requests = Array.from({ length: count }, () => generate(random, fields));
  const failures: string[] = [];
  const kinds = new Set<string>();
  const concurrency = 16;
  let next = 0;
  async function worker() {
    while (next < requests.length) {
      const request = requests[next++] as BadRequest;
      kinds.add(request.kind);
      const headers: Record<string, string> = { origin: SITE_URL };
      if (request.contentType !== null) headers["content-type"] = request.contentType;
      const response = await fetch(`${served.url}${path}`, { method: "POST", headers, body: request.body });
      const text = await response.text();
      let json: { error?: unknown } | undefined;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const preview = new TextDecoder().decode(request.body.slice(0, 80));
      if (response.status < 400 || response.status > 499) {
        failures.push(`${request.kind}: status ${response.status} for ${preview} → ${text.slice(0, 200)}`);
      } else if (!response.headers.get("content-type")?.startsWith("application/json")) {
        failures.push(`${request.kind}: content type ${response.headers.get("content-type")}`);
      } else if (typeof json?.error !== "string" || json.error === "") {
        failures.push(`${request.kind}: no JSON error in ${text.slice(0, 200)}`);
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { failures, kinds };
}

describe("bad-input sweep", () => {
  test("400 generated malformed requests to /api/user: each a 4xx with a JSON error, never a 5xx", async () => {
    const { failures, kinds } = await sweep("/api/user", ["email"], 20250606, 400);
    expect(failures).toEqual([]);
    expect(kinds.size).toBeGreaterThanOrEqual(15);
    expect(await backend.database.db.selectFrom("subscribers").selectAll().execute()).toEqual([]);
    expect(backend.logs).toEqual([]);
    const valid = await postJson(`${served.url}/api/user`, { email: VALID_EMAIL });
    expect(valid.status).toBe(201);
  });

  test("400 generated malformed requests to /api/email: each a 4xx with a JSON error, never a 5xx", async () => {
    const { failures, kinds } = await sweep("/api/email", ["email", "subject", "body"], 60625, 400);
    expect(failures).toEqual([]);
    expect(kinds.size).toBeGreaterThanOrEqual(15);
    expect(
      await backend.database.db.selectFrom("messages").selectAll().where("kind", "=", "contact").execute(),
    ).toEqual([]);
    // The one mail sent so far is the confirmation of the previous test's valid sign-up.
    expect(
      smtp.received.filter((mail) => mail.parsed.subject !== confirmationMail(SITE_URL, "Test Owner", "").subject),
    ).toEqual([]);
    expect(backend.logs).toEqual([]);
    const valid = await postJson(`${served.url}/api/email`, {
      email: VALID_EMAIL,
      subject: "After",
      body: "the sweep",
    });
    expect(valid.status).toBe(202);
  });
});
