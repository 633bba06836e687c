/**
 * Unreadable posts, on the production server (`npm start`'s command on the real build): every POST
 * route — the JSON API and every page with a route action — answers a post it cannot read (no
 * content type, JSON to a form, text/plain, a broken multipart body, an unknown charset…) with 415
 * or 400 and its own message: a page re-rendered with the form's message, or the API's JSON error.
 * Never a 5xx, never a logged stack. Also: the RFC 8058 one-click unsubscribe (no Origin) works,
 * a multipart form post is read like a URL-encoded one, and a page's 429 carries `Retry-After`.
 * `npm start` builds the site first when the build is missing or stale, hence the long timeout.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MESSAGES } from "../../rules/forms.ts";
import { unsubscribeToken } from "../../services/newsletter/tokens.ts";
import { catalogue as fixtureCatalogue } from "../browser/fixture-site.ts";
import { makeTempDir, TEST_SECRET } from "./helpers.ts";
import { type ProductionServer, startProductionServer } from "./production.ts";

const RATE_LIMIT = 3;

let temp: ReturnType<typeof makeTempDir>;
let server: ProductionServer;

beforeAll(async () => {
  temp = makeTempDir();
  server = await startProductionServer({
    DATA_DIR: temp.path,
    SECRET_KEY: TEST_SECRET,
    RATE_LIMIT: String(RATE_LIMIT),
  });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  temp?.remove();
});

const encoder = new TextEncoder();
const FORM_TYPE = "application/x-www-form-urlencoded";

type Post = { contentType: string | null; body: string; origin?: string | null };

/** A POST with exactly these headers: the body goes as bytes, so fetch adds no content type of its own. */
function post(path: string, { contentType, body, origin = server.origin }: Post) {
  const headers: Record<string, string> = {};
  if (contentType !== null) headers["content-type"] = contentType;
  if (origin !== null) headers.origin = origin;
  return fetch(`${server.origin}${path}`, { method: "POST", headers, body: encoder.encode(body), redirect: "manual" });
}

const FIELDS = "email=reader%40example.com&subject=Hi&body=Hello";
const MULTIPART_FIELDS = (boundary: string) =>
  [
    ...[
      ["email", "reader@example.com"],
      ["subject", "Hi"],
      ["body", "Hello"],
    ].map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    `--${boundary}--\r\n`,
  ].join("");

/** Posts no form reader can take, each with a well-formed set of fields inside where it has a body. */
const UNREADABLE: (Post & { kind: string })[] = [
  { kind: "no content type", contentType: null, body: FIELDS },
  { kind: "empty content type", contentType: "", body: FIELDS },
  { kind: "JSON", contentType: "application/json", body: '{"email":"reader@example.com"}' },
  { kind: "text/plain", contentType: "text/plain", body: FIELDS },
  { kind: "text/plain with charset", contentType: "text/plain;charset=UTF-8", body: FIELDS },
  { kind: "XML", contentType: "application/xml", body: "<email>reader@example.com</email>" },
  { kind: "garbage content type", contentType: ";;=;", body: FIELDS },
  { kind: "unknown charset", contentType: `${FORM_TYPE}; charset=koi8-r`, body: FIELDS },
  { kind: "UTF-16 charset", contentType: `${FORM_TYPE}; charset=utf-16`, body: FIELDS },
  { kind: "multipart without boundary", contentType: "multipart/form-data", body: MULTIPART_FIELDS("b0undary") },
  {
    kind: "multipart, body without its boundary",
    contentType: "multipart/form-data; boundary=b0undary",
    body: "email=reader%40example.com",
  },
  {
    kind: "multipart, truncated",
    contentType: "multipart/form-data; boundary=b0undary",
    body: MULTIPART_FIELDS("b0undary").slice(0, 60),
  },
  {
    kind: "multipart, other boundary",
    contentType: "multipart/form-data; boundary=b0undary",
    body: MULTIPART_FIELDS("elsewhere"),
  },
  {
    kind: "multipart, unknown charset",
    contentType: "multipart/form-data; boundary=b0undary; charset=shift_jis",
    body: MULTIPART_FIELDS("b0undary"),
  },
];

const issue = fixtureCatalogue.updates[0];

/** Every page with a route action, and the message its form shows for a post it cannot read. */
const PAGES: { path: string; message: string }[] = [
  // The home page's form posts to its index route.
  { path: "/?index", message: MESSAGES.formUnreadable },
  { path: "/contact", message: MESSAGES.sendFailed },
  { path: "/updates", message: MESSAGES.formUnreadable },
  ...(issue ? [{ path: issue.path, message: MESSAGES.formUnreadable }] : []),
  { path: "/updates/confirm?token=1.x", message: MESSAGES.formUnreadable },
  { path: "/updates/unsubscribe?token=1.x", message: MESSAGES.formUnreadable },
  { path: "/write/fear", message: MESSAGES.formUnreadable },
  { path: "/notes/atomic-habits", message: MESSAGES.formUnreadable },
  { path: "/replies/confirm?token=1.x", message: MESSAGES.formUnreadable },
];

describe("posts that are no form", () => {
  for (const page of PAGES) {
    test(`${page.path} answers each unreadable post with 400 or 415 and the page with its form's message`, async () => {
      const failures: string[] = [];
      for (const unreadable of UNREADABLE) {
        const response = await post(page.path, unreadable);
        const text = await response.text();
        if (![400, 415].includes(response.status)) failures.push(`${unreadable.kind}: status ${response.status}`);
        else if (!response.headers.get("content-type")?.startsWith("text/html")) {
          failures.push(`${unreadable.kind}: ${response.headers.get("content-type")}`);
        } else if (!text.includes(page.message)) failures.push(`${unreadable.kind}: no "${page.message}"`);
      }
      expect(failures).toEqual([]);
    });
  }

  for (const path of ["/api/user", "/api/email"]) {
    test(`${path}: each post that is not JSON gets 400 or 415 and a JSON error`, async () => {
      const failures: string[] = [];
      for (const unreadable of UNREADABLE.filter(({ kind }) => kind !== "JSON")) {
        const response = await post(path, unreadable);
        const answer = (await response.json().catch(() => ({}))) as { error?: unknown };
        if (![400, 415].includes(response.status)) failures.push(`${unreadable.kind}: status ${response.status}`);
        else if (typeof answer.error !== "string" || answer.error === "") failures.push(`${unreadable.kind}: no error`);
      }
      expect(failures).toEqual([]);
    });
  }
});

describe("form posts that must work", () => {
  test("a multipart post is read like a URL-encoded one", async () => {
    const boundary = "b0undary";
    const response = await post("/contact", {
      contentType: `multipart/form-data; boundary=${boundary}`,
      body: MULTIPART_FIELDS(boundary),
    });
    expect(response.status).toBe(303);
    const outcome = await fetch(new URL(response.headers.get("location") ?? "", server.origin));
    expect(await outcome.text()).toContain("I&#x27;ll email you back shortly :)");
  });

  test("a one-click unsubscribe (RFC 8058) works as a foreign server's POST with no Origin", async () => {
    const signup = await post("/?index", { contentType: FORM_TYPE, body: "email=one-click%40example.com" });
    expect(signup.status).toBe(303);
    const database = new Database(join(temp.path, "site.db"), { readonly: true });
    const subscriber = database
      .prepare("SELECT id, email_lower FROM subscribers WHERE email_lower = ?")
      .get("one-click@example.com") as { id: number; email_lower: string };
    database.close();
    const path = `/updates/unsubscribe?token=${unsubscribeToken(TEST_SECRET, subscriber)}`;
    const response = await post(path, { contentType: FORM_TYPE, body: "List-Unsubscribe=One-Click", origin: null });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("You&#x27;re unsubscribed");
  });

  test("over the rate limit, the page says so with 429 and Retry-After", async () => {
    // The sign-ups above used some of this address's allowance; the next ones use up the rest.
    const statuses: number[] = [];
    let last: Response | undefined;
    while (statuses.length <= RATE_LIMIT && last?.status !== 429) {
      last = await post("/updates", { contentType: FORM_TYPE, body: `email=limit-${statuses.length}%40example.com` });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, -1).every((status) => status === 303)).toBe(true);
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await last?.text()).toContain(MESSAGES.rateLimited);
  });

  test("a POST to a page without a form is refused with 405 and not logged", async () => {
    const response = await post("/", { contentType: FORM_TYPE, body: "email=reader%40example.com" });
    expect(response.status).toBe(405);
  });
});

// Runs last (tests in a file run in order): every answer above was the client's doing, so nothing is logged.
describe("the server's log", () => {
  test("none of these posts left a stack trace or an error in the server's log", () => {
    expect(server.output()).not.toMatch(/\n\s+at |Error|failed/);
  });
});
