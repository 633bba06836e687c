/**
 * The newsletter over HTTP, on the production server (`npm start` on the real build) with a real
 * SMTP server: the links of the mails (a GET never changes anything, the confirm button is a
 * same-site form post, the one-click unsubscribe is the one cross-site POST accepted), the
 * generated secret, and that no URL whatever serves the list of subscribers or the secret.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import routes from "../../app/routes.ts";
import { openDatabase } from "../../services/db/database.ts";
import { writeDkimKey } from "../../services/mail/authentication.ts";
import { unsubscribeToken } from "../../services/newsletter/tokens.ts";
import { makeTempDir, postJson, type SmtpRecorder, sleep, startSmtp, waitFor } from "./helpers.ts";
import { builtSiteUrl, type ProductionServer, startProductionServer } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let server: ProductionServer;
const siteUrl = builtSiteUrl();
const PEOPLE = ["first.reader@example.org", "second.reader@example.org"];

beforeAll(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
  writeDkimKey(join(temp.path, "dkim.pem"), "s1");
  server = await startProductionServer({ DATA_DIR: temp.path, SMTP_URL: smtp.url, RATE_LIMIT: "0" });
  for (const email of PEOPLE) {
    const answer = await postJson(`${server.origin}/api/user`, { email }, { origin: server.origin });
    expect(answer.status).toBe(201);
  }
  await waitFor(() => smtp.received.length === PEOPLE.length, { what: "the confirmation mails" });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  temp?.remove();
});

async function subscriberRow(email: string) {
  const database = await openDatabase(temp.path);
  try {
    return database.sqlite.prepare("SELECT id, email_lower, status FROM subscribers WHERE email = ?").get(email) as {
      id: number;
      email_lower: string;
      status: string;
    };
  } finally {
    void database.close();
  }
}

const statusOf = async (email: string) => (await subscriberRow(email)).status;

/** The link of the confirmation mail to `email`, moved onto the test server's address. */
function confirmLinkOf(email: string): URL {
  const mail = smtp.received.find((received) => received.envelope.to.includes(email));
  const link = /\S+\/updates\/confirm\?token=\S+/.exec(mail?.parsed.text ?? "")?.[0] ?? "";
  expect(link.startsWith(`${siteUrl}/updates/confirm?token=`)).toBe(true);
  return new URL(link.replace(siteUrl, server.origin));
}

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields).toString(),
});

test("the confirm link: a GET (a mail scanner) changes nothing and shows no address; a cross-site POST is refused; the button's post confirms", async () => {
  const [email] = PEOPLE as [string];
  const link = confirmLinkOf(email);
  for (let scan = 0; scan < 3; scan++) {
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Confirm subscription");
    expect(html).not.toContain(email);
    expect((await fetch(new URL(`/updates/confirm.data${link.search}`, link))).status).toBeLessThan(500);
  }
  expect(await statusOf(email)).toBe("pending");

  const token = link.searchParams.get("token") ?? "";
  const crossSite = await fetch(link, form({ token }, { Origin: "https://evil.example" }));
  expect(crossSite.status).toBe(403);
  expect(await statusOf(email)).toBe("pending");

  const confirmed = await fetch(link, form({ token }, { Origin: server.origin }));
  expect(confirmed.status).toBe(200);
  expect(await confirmed.text()).toMatch(/You(&#x27;|')re subscribed/);
  expect(await statusOf(email)).toBe("confirmed");

  const used = await fetch(link, form({ token }, { Origin: server.origin }));
  expect(used.status).toBe(400);
  expect(await used.text()).toContain("This link has expired");
});

test("a confirmed subscriber gets the owner's welcome once, signed, with one-click unsubscribe, though the button is pressed twice at once", async () => {
  const email = "welcomed.reader@example.org";
  expect((await postJson(`${server.origin}/api/user`, { email }, { origin: server.origin })).status).toBe(201);
  await waitFor(() => smtp.received.some((mail) => mail.envelope.to.includes(email)), { what: "the confirmation" });
  const link = confirmLinkOf(email);
  const token = link.searchParams.get("token") ?? "";
  const presses = await Promise.all([1, 2].map(() => fetch(link, form({ token }, { Origin: server.origin }))));
  expect(presses.map((press) => press.status).sort()).toEqual([200, 400]);

  const welcomes = () =>
    smtp.received.filter((mail) => mail.envelope.to.includes(email) && mail.parsed.subject?.startsWith("Welcome"));
  await waitFor(() => welcomes().length > 0, { what: "the welcome" });
  await sleep(1500);
  const [welcome, ...more] = welcomes();
  expect(more).toEqual([]);
  expect(welcome?.parsed.subject).toBe("Welcome to the fixture updates");
  expect(welcome?.parsed.text).toContain(`The first issue (${siteUrl}/updates/first-issue) is a fine place to start.`);
  expect(welcome?.parsed.text).toContain(`Past updates on the site: ${siteUrl}/updates`);
  const secret = readFileSync(join(temp.path, "secret"), "utf8").trim();
  const unsubscribe = `${siteUrl}/updates/unsubscribe?token=${unsubscribeToken(secret, await subscriberRow(email))}`;
  const headers = welcome?.raw.slice(0, welcome.raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]+/g, " ") ?? "";
  expect(headers).toContain(`\r\nList-Unsubscribe: <${unsubscribe}>\r\n`);
  expect(headers).toContain("\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
  expect(headers).toMatch(/^DKIM-Signature: .*\bh=[^;]*List-Unsubscribe:List-Unsubscribe-Post/im);
  expect(welcome?.envelope.from).toMatch(/^bounces\+\d+\.\d+\./);
});

test("a forged or unusable confirm link gets a clear page whose sign-up box works, never a 5xx", async () => {
  for (const token of ["", "1", "1.1.x", `1.9999999999.${"A".repeat(43)}`, "%ff", "a".repeat(5000)]) {
    const page = await fetch(`${server.origin}/updates/confirm?token=${token}`);
    expect(page.status, token).toBe(400);
    const html = await page.text();
    expect(html).toContain("This link has expired");
    expect(html).toContain("Want updates?");
  }
  // The sign-up box on that page posts there too, and signs the person up anew.
  const fresh = "fresh.start@example.org";
  const signup = await fetch(`${server.origin}/updates/confirm?token=1`, {
    ...form({ email: fresh }, { Origin: server.origin }),
    redirect: "manual",
  });
  expect(signup.status).toBe(303);
  const thanked = await fetch(new URL(signup.headers.get("location") ?? "", server.origin));
  expect(await thanked.text()).toContain("Thank you for your interest :)");
  expect(await statusOf(fresh)).toBe("pending");
  const noForm = await fetch(`${server.origin}/updates/confirm?token=1`, {
    method: "POST",
    headers: { Origin: server.origin, "Content-Type": "application/json" },
    body: "{}",
  });
  expect(noForm.status).toBe(415);
});

test("one-click unsubscribe (RFC 8058): a POST with no cookie and no Origin takes the person off; the same POST with a forged token does nothing", async () => {
  const [, email] = PEOPLE as [string, string];
  const link = confirmLinkOf(email);
  const token = link.searchParams.get("token") ?? "";
  expect((await fetch(link, form({ token }, { Origin: server.origin }))).status).toBe(200);
  expect(await statusOf(email)).toBe("confirmed");

  // The link of an issue's List-Unsubscribe header, made as the worker makes it, with the server's secret.
  const secret = readFileSync(join(temp.path, "secret"), "utf8").trim();
  const subscriber = await subscriberRow(email);
  const unsubscribe = `${server.origin}/updates/unsubscribe?token=${unsubscribeToken(secret, subscriber)}`;
  const forged = `${server.origin}/updates/unsubscribe?token=${unsubscribeToken("x".repeat(40), subscriber)}`;
  const oneClick = { "Content-Type": "application/x-www-form-urlencoded" };

  const refused = await fetch(forged, { method: "POST", headers: oneClick, body: "List-Unsubscribe=One-Click" });
  expect(refused.status).toBe(400);
  expect(await refused.text()).toContain("This link is not valid");
  expect(await statusOf(email)).toBe("confirmed");

  const page = await fetch(unsubscribe);
  expect(await page.text()).toContain("Unsubscribe");
  expect(await statusOf(email)).toBe("confirmed");

  const left = await fetch(unsubscribe, { method: "POST", headers: oneClick, body: "List-Unsubscribe=One-Click" });
  expect(left.status).toBe(200);
  expect(await left.text()).toMatch(/You(&#x27;|')re unsubscribed/);
  expect(await statusOf(email)).toBe("unsubscribed");
  // Again, from a foreign origin: still answered, still idempotent.
  const again = await fetch(unsubscribe, {
    method: "POST",
    headers: { ...oneClick, Origin: "https://mail.example" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(again.status).toBe(200);
  expect(await statusOf(email)).toBe("unsubscribed");
  // The exemption is this path alone: other form posts from a foreign origin stay refused.
  const signup = await fetch(`${server.origin}/updates`, form({ email }, { Origin: "https://mail.example" }));
  expect(signup.status).toBe(403);
});

test("the generated secret is DATA_DIR/secret, readable by the owner only, and no URL serves it or the list of subscribers", async () => {
  const secretFile = join(temp.path, "secret");
  expect(statSync(secretFile).mode & 0o777).toBe(0o600);
  const secret = readFileSync(secretFile, "utf8").trim();
  expect(secret.length).toBeGreaterThanOrEqual(32);

  const appPaths = routes.map((route) => `/${(route.path ?? "").replace(/:\w+/g, "x").replace("*", "x")}`);
  const guessed = [
    "/api/user",
    "/api/users",
    "/api/subscribers",
    "/api/export",
    "/subscribers",
    "/subscribers.csv",
    "/export",
    "/updates/export",
    "/updates/subscribers",
    "/updates/x.data",
    "/updates.data",
    "/site.db",
    "/data/site.db",
    "/data/secret",
    "/secret",
    "/%2e%2e/data/site.db",
    "/..%2fdata%2fsite.db",
    "/newsletter-preview",
    "/mail",
    "/received",
  ];
  const secrets = [...PEOPLE, secret];
  for (const path of [...new Set([...appPaths, ...guessed])]) {
    for (const init of [{}, form({ list: "all" }, { Origin: server.origin })]) {
      const response = await fetch(`${server.origin}${path}`, init);
      const body = await response.text();
      expect(response.status, `${path}`).toBeLessThan(500);
      for (const hidden of secrets) expect(body.includes(hidden), `${path} must not show ${hidden}`).toBe(false);
    }
  }
});
