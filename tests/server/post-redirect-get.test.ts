/**
 * Forms posted without JavaScript, on the production server (`npm start`'s command on the real build)
 * without SMTP: a successful post is answered with a 303 to its page, whose GET shows the outcome, so
 * that loading it again (reload, Back, Forward) posts nothing; a forged or stale outcome address shows
 * the plain page; an error is answered in place with the visitor's input; a fetcher's post is still
 * answered in place. The confirmation mail written to a file can be read, its link whole.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MESSAGES } from "../../rules/forms.ts";
import { sentToken } from "../../services/forms/sent.ts";
import { confirmToken, unsubscribeToken } from "../../services/newsletter/tokens.ts";
import { catalogue as fixtureCatalogue } from "../browser/fixture-site.ts";
import { storedSubscriber } from "../support/subscribers.ts";
import { makeTempDir, TEST_SECRET, waitFor } from "./helpers.ts";
import { builtSiteUrl, type ProductionServer, startProductionServer } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let server: ProductionServer;

beforeAll(async () => {
  temp = makeTempDir();
  server = await startProductionServer({ DATA_DIR: temp.path, SECRET_KEY: TEST_SECRET, RATE_LIMIT: "0" });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  temp?.remove();
});

/** A browser's plain form post: same origin, URL-encoded, the redirect left for the test to follow. */
function post(path: string, fields: Record<string, string>) {
  return fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.origin },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

const page = (path: string) =>
  fetch(`${server.origin}${path}`).then(async (response) => ({
    status: response.status,
    html: await response.text(),
  }));

const subscriber = (email: string) => storedSubscriber(temp.path, email);

function countRows(table: "messages" | "subscribers"): number {
  const database = new Database(join(temp.path, "site.db"), { readonly: true });
  try {
    return (database.prepare(`SELECT count(*) AS rows FROM ${table}`).get() as { rows: number }).rows;
  } finally {
    database.close();
  }
}

const SENT_TEXT = "I&#x27;ll email you back shortly :)";
const THANKS = "Thank you for your interest :)";
const letter = { email: "reader@example.com", subject: "Hello", body: "A question about a book." };

describe("a successful post without JavaScript", () => {
  test("contact: a 303 to /contact with a sent token, whose page says so; loading it again queues nothing more", async () => {
    const before = countRows("messages");
    // Where the page's form posts: the prerendered page's own address, with its trailing slash.
    const answer = await post("/contact/", letter);
    expect(answer.status).toBe(303);
    const location = answer.headers.get("location") ?? "";
    expect(location).toMatch(/^\/contact\?sent=contact\.\d+\.[\w-]{43}$/);
    expect(countRows("messages")).toBe(before + 1);
    for (let load = 0; load < 3; load++) {
      const outcome = await page(location);
      expect(outcome.status).toBe(200);
      expect(outcome.html).toContain(SENT_TEXT);
      expect(outcome.html).toContain("Send another email");
    }
    expect(countRows("messages")).toBe(before + 1);
  });

  const issue = fixtureCatalogue.updates[0];
  const signupPages = ["/", "/updates", ...(issue ? [issue.path] : [])];
  for (const path of signupPages) {
    test(`sign-up on ${path}: a 303 back to ${path}, whose page thanks the visitor; loading it again signs no one up`, async () => {
      const before = countRows("subscribers");
      const answer = await post(path === "/" ? "/?index" : path, {
        email: `prg${signupPages.indexOf(path)}@example.com`,
      });
      expect(answer.status).toBe(303);
      const location = new URL(answer.headers.get("location") ?? "", server.origin);
      expect(location.pathname).toBe(path);
      expect(location.searchParams.has("index")).toBe(false);
      for (let load = 0; load < 2; load++)
        expect((await page(location.pathname + location.search)).html).toContain(THANKS);
      expect(countRows("subscribers")).toBe(before + 1);
    });
  }

  test("the mail links' buttons: confirm and unsubscribe answer with a 303 to their page, which shows the new state", async () => {
    const email = "both.buttons@example.com";
    expect((await post("/updates", { email })).status).toBe(303);
    const confirmPath = `/updates/confirm?token=${confirmToken(TEST_SECRET, subscriber(email))}`;
    const confirmed = await post(confirmPath, {});
    expect([confirmed.status, confirmed.headers.get("location")]).toEqual([303, confirmPath]);
    for (let load = 0; load < 2; load++) expect((await page(confirmPath)).html).toMatch(/You(&#x27;|')re subscribed/);
    expect(subscriber(email).status).toBe("confirmed");

    const unsubscribePath = `/updates/unsubscribe?token=${unsubscribeToken(TEST_SECRET, subscriber(email))}`;
    const left = await post(unsubscribePath, {});
    expect([left.status, left.headers.get("location")]).toEqual([303, unsubscribePath]);
    for (let load = 0; load < 2; load++) {
      expect((await page(unsubscribePath)).html).toMatch(/You(&#x27;|')re unsubscribed/);
    }
    expect(subscriber(email).status).toBe("unsubscribed");
  });

  test("the confirmation mail written to a file has a readable copy whose link, copied whole, opens the confirm page", async () => {
    const email = "copy.the.link@example.com";
    expect((await post("/updates", { email })).status).toBe(303);
    const folder = join(temp.path, "mail");
    const copy = await waitFor(
      () =>
        (existsSync(folder) ? readdirSync(folder) : [])
          .filter((name) => name.endsWith(".txt"))
          .map((name) => readFileSync(join(folder, name), "utf8"))
          .find((text) => text.startsWith(`To: ${email}\n`)),
      { what: "the confirmation mail's .txt" },
    );
    const link = /\S+\/updates\/confirm\?token=\S+/.exec(copy)?.[0] ?? "";
    expect(link.startsWith(`${builtSiteUrl()}/updates/confirm?token=`)).toBe(true);
    const confirmPage = await page(link.replace(builtSiteUrl(), ""));
    expect(confirmPage.status).toBe(200);
    expect(confirmPage.html).toContain("Confirm your subscription");
  });
});

describe("the outcome page cannot be made to lie", () => {
  test("a forged, stale or other form's token shows the plain page, with its form and no outcome", async () => {
    const forged = `contact.9999999999.${"A".repeat(43)}`;
    const stale = sentToken(TEST_SECRET, "contact", Date.now() - 11 * 60_000);
    const otherForm = sentToken(TEST_SECRET, "signup");
    for (const token of [forged, stale, otherForm, "", "%ff", "x".repeat(3000)]) {
      const outcome = await page(`/contact?sent=${token}`);
      expect(outcome.status, token).toBe(200);
      expect(outcome.html, token).not.toContain(SENT_TEXT);
      expect(outcome.html, token).toContain('name="subject"');
    }
  });
});

describe("what is not redirected", () => {
  test("an error is answered in place with its message and the visitor's input, and nothing is queued", async () => {
    const before = countRows("messages");
    const answer = await post("/contact", { ...letter, email: "not-an-address" });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain(MESSAGES.emailInvalid);
    expect(html).toContain('value="not-an-address"');
    expect(html).toContain(letter.body);
    expect(countRows("messages")).toBe(before);
  });

  test("a fetcher's post (JavaScript) is answered in place, not redirected", async () => {
    const answer = await post("/contact.data", letter);
    expect(answer.status).toBe(202);
    expect(answer.headers.get("location")).toBeNull();
  });
});
