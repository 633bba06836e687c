/**
 * Webmentions received, on the project's database: `POST /webmention` served for real, another site
 * played by a real HTTP server on 127.0.0.1, the owner's mail caught by the real SMTP recorder.
 * A well-formed webmention is stored before its 202, then checked by the backend's worker.
 */
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createWebmentionDoor, WEBMENTION_ERRORS } from "../../host/webmention.ts";
import { WEBMENTIONS_PER_SOURCE_HOST } from "../../services/backend.ts";
import type { Config } from "../../services/config.ts";
import { blockSender, listReplies } from "../../services/replies/store.ts";
import { forgetRefused, REFUSED_KEPT_MS } from "../../services/webmention/receive.ts";
import {
  childProcessEnv,
  makeTempDir,
  OWNER,
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

const root = fileURLToPath(new URL("../..", import.meta.url));
const TARGET = `${SITE_URL}/write/fear`;

type Page = { status?: number; type?: string; body: string };

/** Another site: its pages can be changed, removed or made to fail while the test runs. */
async function startOtherSite() {
  const pages = new Map<string, Page>();
  const server: Server = createServer((request, response) => {
    const page = pages.get(request.url ?? "") ?? { status: 404, body: "Not here" };
    response.writeHead(page.status ?? 200, { "content-type": page.type ?? "text/html; charset=utf-8" });
    response.end(page.body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    pages,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

const entry = (words: string, link = TARGET) => `<!doctype html><title>A reply</title>
<article class="h-entry">
  <a class="p-author h-card" href="https://ann.example/">Ann Sample</a>
  <time class="dt-published" datetime="2026-03-04T05:06:07Z">4 March</time>
  <div class="e-content"><p>${words} <a href="${link}">Fear</a></p></div>
</article>`;

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let other: Awaited<ReturnType<typeof startOtherSite>>;
let backend: TestBackend;
let door: Served;

async function start(overrides: Partial<Config> = {}) {
  backend = await startTestBackend(
    testConfig(temp.path, { smtpUrl: smtp.url, federationAllowLoopback: true, ...overrides }),
    { webmentions: { loop: { pollMs: 20, baseDelayMs: 50, maxAttempts: 3 } } },
  );
  door = await serveApp(createWebmentionDoor(backend.webmentions));
}

beforeEach(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
  other = await startOtherSite();
});

afterEach(async () => {
  await door?.close();
  await backend?.close();
  await other.close();
  await smtp.stop();
  temp.remove();
});

const send = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${door.url}/webmention`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });

const rows = () => backend.database.db.selectFrom("webmentions").selectAll().orderBy("id").execute();

const settled = async (source: string) =>
  waitFor(
    async () => {
      const row = (await rows()).find((candidate) => candidate.source === source);
      return row && row.status !== "queued" ? row : undefined;
    },
    { what: `the check of ${source}` },
  );

describe("a webmention whose source links to one of our posts", () => {
  beforeEach(() => start());

  test("is stored before its 202, then verified and held for the owner with its h-entry's author and words", async () => {
    const source = `${other.url}/replies/1`;
    other.pages.set("/replies/1", { body: entry("I read this twice.") });
    const response = await send({ source, target: TARGET });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("Accepted: the source will be checked for a link to the target.");
    expect((await rows()).map((row) => [row.source, row.target])).toEqual([[source, TARGET]]);

    const row = await settled(source);
    expect(row).toMatchObject({ status: "verified", reason: null });
    const [reply] = await listReplies(backend.database.db);
    expect(reply).toMatchObject({
      id: row.reply_id,
      kind: "webmention",
      status: "pending",
      target: "/write/fear",
      author_name: "Ann Sample",
      author_url: "https://ann.example/",
      text: "I read this twice. Fear",
      source_url: source,
      written_at: "2026-03-04T05:06:07.000Z",
    });
    const mail = await waitFor(() => smtp.received[0], { what: "the owner's summary" });
    expect(mail.envelope.to).toEqual([OWNER]);
    expect(mail.parsed.subject).toBe(`Reply #${reply?.id} to /write/fear from Ann Sample`);
    expect(mail.parsed.text).toContain(`Source: ${source}`);

    const env: Record<string, string> = { ...childProcessEnv(), DATA_DIR: temp.path };
    if (backend.config.databaseUrl) env.DATABASE_URL = backend.config.databaseUrl;
    const listed = spawnSync(process.execPath, ["--import", "tsx", "scripts/replies.ts", "list", "--json"], {
      cwd: root,
      env,
      encoding: "utf8",
    });
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        id: reply?.id,
        kind: "webmention",
        status: "pending",
        author: { name: "Ann Sample", url: "https://ann.example/", address: null },
        text: "I read this twice. Fear",
        target: "/write/fear",
      },
    ]);
  });

  test("sent again, is checked again and still makes one reply", async () => {
    const source = `${other.url}/replies/1`;
    other.pages.set("/replies/1", { body: entry("Once.") });
    expect((await send({ source, target: TARGET })).status).toBe(202);
    const first = await settled(source);
    expect((await send({ source, target: TARGET })).status).toBe(202);
    const second = await settled(source);
    expect(second).toMatchObject({ id: first.id, status: "verified", reply_id: first.reply_id });
    expect(await listReplies(backend.database.db)).toHaveLength(1);
    await sleep(200);
    expect(smtp.received).toHaveLength(1);
  });

  test("whose words changed, replaces its reply by one the owner is asked about again", async () => {
    const source = `${other.url}/replies/1`;
    other.pages.set("/replies/1", { body: entry("First words.") });
    await send({ source, target: TARGET });
    const first = await settled(source);
    other.pages.set("/replies/1", { body: entry("Second thoughts.") });
    await send({ source, target: TARGET });
    const second = await waitFor(async () => {
      const row = (await rows())[0];
      return row?.status === "verified" && row.reply_id !== first.reply_id ? row : undefined;
    });
    const replies = await listReplies(backend.database.db);
    expect(replies.map((reply) => [reply.id, reply.text])).toEqual([[second.reply_id, "Second thoughts. Fear"]]);
    await waitFor(() => smtp.received.length === 2, { what: "a second summary" });
  });

  test("that later answers 410 Gone, or no longer links, takes its reply away", async () => {
    for (const [path, gone] of [
      ["/gone", { status: 410, body: "Gone" }],
      ["/unlinked", { body: entry("Changed my mind.", "https://elsewhere.example/") }],
    ] as const) {
      const source = `${other.url}${path}`;
      other.pages.set(path, { body: entry("Here.") });
      await send({ source, target: TARGET });
      expect(await settled(source)).toMatchObject({ status: "verified" });
      other.pages.set(path, gone);
      await send({ source, target: TARGET });
      const row = await settled(source);
      expect(row).toMatchObject({ status: "refused", reply_id: null });
      expect(row.reason).toBe(path === "/gone" ? "the source answers 410" : "the source does not link to the target");
    }
    expect(await listReplies(backend.database.db)).toEqual([]);
  });

  test("whose source fails for a while is tried again, and held once it answers", async () => {
    const source = `${other.url}/busy`;
    other.pages.set("/busy", { status: 503, body: "Busy" });
    await send({ source, target: TARGET });
    await waitFor(async () => (await rows())[0]?.attempts === 1, { what: "a first failed try" });
    expect((await rows())[0]).toMatchObject({ status: "queued", reason: "the source answers 503" });
    other.pages.set("/busy", { body: entry("Back.") });
    expect(await settled(source)).toMatchObject({ status: "verified" });
    expect(await listReplies(backend.database.db)).toHaveLength(1);
  });

  test("from a blocked domain is kept blocked, and the owner is not mailed", async () => {
    await blockSender(backend.database.db, "127.0.0.1");
    const source = `${other.url}/replies/1`;
    other.pages.set("/replies/1", { body: entry("Spam.") });
    await send({ source, target: TARGET });
    expect(await settled(source)).toMatchObject({ status: "verified" });
    expect((await listReplies(backend.database.db)).map((reply) => reply.status)).toEqual(["blocked"]);
    await sleep(200);
    expect(smtp.received).toEqual([]);
  });
});

describe("a webmention that cannot become a reply", () => {
  beforeEach(() => start());

  test.each([
    ["does not link to the target", { body: "<p>No link here.</p>" }, "the source does not link to the target"],
    ["is not HTML", { type: "application/json", body: `{"link":"${TARGET}"}` }, "the source is not an HTML page"],
    ["is not found", { status: 404, body: "" }, "the source answers 404"],
  ])("whose source %s is refused with the reason, and makes no reply", async (_, page, reason) => {
    const source = `${other.url}/page`;
    other.pages.set("/page", page);
    expect((await send({ source, target: TARGET })).status).toBe(202);
    expect(await settled(source)).toMatchObject({ status: "refused", reason, reply_id: null });
    expect(await listReplies(backend.database.db)).toEqual([]);
  });

  test("whose source is this machine is refused when loopback is not allowed", async () => {
    await door.close();
    await backend.close();
    await start({ federationAllowLoopback: false });
    const source = `${other.url}/replies/1`;
    other.pages.set("/replies/1", { body: entry("Inside.") });
    await send({ source, target: TARGET });
    const row = await settled(source);
    expect(row.status).toBe("refused");
    expect(row.reason).toMatch(/^the source 127\.0\.0\.1:\d+ is not a public address/);
  });

  test("whose source is over a megabyte is refused without reading it all", async () => {
    const source = `${other.url}/huge`;
    other.pages.set("/huge", { body: `${entry("Big.")}${" ".repeat(2 * 1024 * 1024)}` });
    await send({ source, target: TARGET });
    expect(await settled(source)).toMatchObject({
      status: "refused",
      reason: "the source the page is larger than 1048576 bytes",
    });
  });
});

describe("what is kept", () => {
  beforeEach(() => start());

  test("a refused webmention is forgotten after its keeping time; a verified one stays with its reply", async () => {
    other.pages.set("/linked", { body: entry("Kept.") });
    other.pages.set("/unlinked", { body: "<p>Nothing.</p>" });
    for (const path of ["/linked", "/unlinked"]) await send({ source: `${other.url}${path}`, target: TARGET });
    await settled(`${other.url}/linked`);
    await settled(`${other.url}/unlinked`);
    const db = backend.database.db;
    expect(await forgetRefused(db)).toBe(0);
    const old = new Date(Date.now() - REFUSED_KEPT_MS - 60_000).toISOString();
    await db.updateTable("webmentions").set({ updated_at: old }).execute();
    expect(await forgetRefused(db)).toBe(1);
    expect((await rows()).map((row) => [row.source, row.status])).toEqual([[`${other.url}/linked`, "verified"]]);
    expect(await listReplies(db)).toHaveLength(1);
  });
});

describe("bad input", () => {
  beforeEach(() => start());

  const page = "https://blog.example/posts/1";

  test.each([
    ["no source", { target: TARGET }, "The source is missing: send source and target, form-encoded."],
    ["no target", { source: page }, "The target is missing: send source and target, form-encoded."],
    [
      "a source that is not a URL",
      { source: "nonsense", target: TARGET },
      "The source must be an http or https address.",
    ],
    [
      "a javascript: target",
      { source: page, target: "javascript:alert(1)" },
      "The target must be an http or https address.",
    ],
    [
      "a target on another site",
      { source: page, target: "https://elsewhere.example/write/fear" },
      "The target is not a page of this site.",
    ],
    [
      "a target that is not a post",
      { source: page, target: `${SITE_URL}/about` },
      "The target is not an essay or a book note of this site.",
    ],
    [
      "the target as its own source",
      { source: TARGET, target: TARGET },
      "The source and the target must be different pages.",
    ],
    [
      "an over-long source",
      { source: `https://blog.example/${"a".repeat(2100)}`, target: TARGET },
      "The source is longer than 2000 characters.",
    ],
  ])("%s gets 400 with a clear text and stores nothing", async (_, fields, error) => {
    const response = await send(fields);
    expect([response.status, await response.text()]).toEqual([400, error]);
    expect(await rows()).toEqual([]);
  });

  test("a body that is not form-encoded gets 415, a repeated field or bad UTF-8 400, a huge one 413", async () => {
    const json = await fetch(`${door.url}/webmention`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ source: "https://blog.example/", target: TARGET }),
    });
    expect([json.status, await json.text()]).toEqual([415, WEBMENTION_ERRORS.notForm]);
    const twice = await fetch(`${door.url}/webmention`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `source=${encodeURIComponent(page)}&source=${encodeURIComponent(page)}&target=${encodeURIComponent(TARGET)}`,
    });
    expect([twice.status, await twice.text()]).toEqual([400, WEBMENTION_ERRORS.repeated]);
    const badUtf8 = await fetch(`${door.url}/webmention`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new Uint8Array([0x73, 0x3d, 0xff, 0xfe]),
    });
    expect([badUtf8.status, await badUtf8.text()]).toEqual([400, WEBMENTION_ERRORS.badUtf8]);
    const huge = await send({ source: page, target: TARGET, padding: "x".repeat(20_000) });
    expect([huge.status, await huge.text()]).toEqual([413, WEBMENTION_ERRORS.tooLarge]);
    const get = await fetch(`${door.url}/webmention`);
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    expect(await rows()).toEqual([]);
  });
});

describe("a flood from one site", () => {
  test(`is cut at ${WEBMENTIONS_PER_SOURCE_HOST} per source host per 10 minutes, with Retry-After; other hosts still get in`, async () => {
    await start({ rateLimit: 1 });
    for (let index = 0; index < WEBMENTIONS_PER_SOURCE_HOST; index++) {
      expect((await send({ source: `https://flood.example/${index}`, target: TARGET })).status).toBe(202);
    }
    const refused = await send({ source: "https://flood.example/one-more", target: TARGET });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await send({ source: "https://calm.example/1", target: TARGET })).status).toBe(202);
    expect(await rows()).toHaveLength(WEBMENTIONS_PER_SOURCE_HOST + 1);
  });
});
