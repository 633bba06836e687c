/**
 * Webmentions sent, on the project's database: the site's essay page and the pages it links to are
 * real HTTP servers on 127.0.0.1; their endpoints record each POST. Discovery follows the W3C order
 * (Link header, then the first <link> or <a>), and each (essay, page) is told once per content.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Config } from "../../services/config.ts";
import type { LinkingPage } from "../../services/webmention/send.ts";
import { makeTempDir, sleep, startTestBackend, type TestBackend, testConfig, waitFor } from "./helpers.ts";

type Answer = { status?: number; headers?: Record<string, string>; body?: string };

async function startServer(answer: (request: IncomingMessage, body: string) => Answer) {
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const { status = 200, headers = {}, body: text = "" } = answer(request, body);
      response.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers });
      response.end(text);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

type Received = { path: string; type: string | undefined; source: string | null; target: string | null };

/** Pages of another site, each announcing its endpoint one way, and the endpoints recording what they get. */
async function startOtherSite() {
  const posts: Received[] = [];
  const gets: string[] = [];
  let flakyFailures = 1;
  const pages: Record<string, Answer> = {
    "/by-header": { headers: { link: '</endpoints/header>; rel="webmention"' }, body: "<p>A page.</p>" },
    "/by-link": { body: '<html><head><link rel="webmention" href="/endpoints/link"></head><body>A</body></html>' },
    "/by-a": { body: '<p><a href="/about">About</a> <a rel="webmention" href="/endpoints/a">Mentions</a></p>' },
    "/nested/by-relative": { body: '<link rel="webmention" href="endpoint"><p>Relative.</p>' },
    "/none": { body: "<p>No endpoint here.</p>" },
    "/flaky": { body: '<link rel="webmention" href="/endpoints/flaky">' },
  };
  const site = await startServer((request, body) => {
    const path = request.url ?? "";
    if (request.method === "POST") {
      const fields = new URLSearchParams(body);
      posts.push({
        path,
        type: request.headers["content-type"],
        source: fields.get("source"),
        target: fields.get("target"),
      });
      if (path === "/endpoints/flaky" && flakyFailures-- > 0) return { status: 503, body: "Busy" };
      return { status: 202, body: "Accepted" };
    }
    gets.push(path);
    return pages[path] ?? { status: 404, body: "Not found" };
  });
  return { ...site, posts, gets };
}

let temp: ReturnType<typeof makeTempDir>;
let own: Awaited<ReturnType<typeof startServer>>;
let other: Awaited<ReturnType<typeof startOtherSite>>;
let backend: TestBackend | undefined;
let essayLive = true;

async function start(overrides: Partial<Config> = {}) {
  backend = await startTestBackend(
    testConfig(temp.path, { siteUrl: own.url, federationAllowLoopback: true, ...overrides }),
    { webmentions: { loop: { pollMs: 20, baseDelayMs: 50, maxAttempts: 3 }, liveWait: { tries: 3, intervalMs: 20 } } },
  );
  return backend;
}

async function restart() {
  const databaseUrl = backend?.config.databaseUrl;
  await backend?.close();
  return start({ databaseUrl });
}

beforeEach(async () => {
  temp = makeTempDir();
  essayLive = true;
  own = await startServer((request) =>
    essayLive && request.url?.startsWith("/write/") ? { body: "<p>The essay.</p>" } : { status: 404 },
  );
  other = await startOtherSite();
});

afterEach(async () => {
  await backend?.close();
  backend = undefined;
  await other.close();
  await own.close();
  temp.remove();
});

const essay = (links: string[], html = "<p>First version.</p>"): LinkingPage => ({
  url: `${own.url}/write/linking`,
  links: links.map((path) => `${other.url}${path}`),
  html,
});

const sends = (db: TestBackend) =>
  db.database.db.selectFrom("webmention_sends").selectAll().orderBy("target").execute();

const settled = (db: TestBackend, count: number) =>
  waitFor(
    async () => {
      const rows = await sends(db);
      return rows.length === count && rows.every((row) => row.status !== "queued") ? rows : undefined;
    },
    { what: `${count} sends settled` },
  );

const postsTo = (path: string) => other.posts.filter((post) => post.path === path);

describe("discovering a page's endpoint", () => {
  test("by Link header, <link>, <a> and a relative href, each posted source and target form-encoded; no endpoint is recorded", async () => {
    const site = await start();
    const page = essay(["/by-header", "/by-link", "/by-a", "/nested/by-relative", "/none", "/by-a#again"]);
    await site.webmentions.publish([page]);
    const rows = await settled(site, 5);
    expect(rows.map((row) => [row.target.slice(other.url.length), row.status, row.endpoint])).toEqual([
      ["/by-a", "sent", `${other.url}/endpoints/a`],
      ["/by-header", "sent", `${other.url}/endpoints/header`],
      ["/by-link", "sent", `${other.url}/endpoints/link`],
      ["/nested/by-relative", "sent", `${other.url}/nested/endpoint`],
      ["/none", "no-endpoint", null],
    ]);
    expect(other.posts.map((post) => post.path).sort()).toEqual([
      "/endpoints/a",
      "/endpoints/header",
      "/endpoints/link",
      "/nested/endpoint",
    ]);
    for (const post of other.posts) {
      expect(post.type).toBe("application/x-www-form-urlencoded;charset=UTF-8");
      expect(post.source).toBe(page.url);
    }
    expect(postsTo("/endpoints/header")[0]?.target).toBe(`${other.url}/by-header`);
  });

  test("a link to a page of this machine is not followed when loopback is not allowed", async () => {
    const site = await start({ federationAllowLoopback: false });
    await site.webmentions.publish([essay(["/by-header"])]);
    const [row] = await settled(site, 1);
    expect(row?.status).toBe("failed");
    expect(row?.reason).toMatch(/^the target could not be fetched: 127\.0\.0\.1:\d+ is not a public address/);
    expect(other.gets).toEqual([]);
  });
});

describe("sending once", () => {
  test("a restart, and the same build again, send nothing twice; a page without an endpoint is not asked again", async () => {
    const page = essay(["/by-header", "/by-link", "/none"]);
    await (await start()).webmentions.publish([page]);
    await settled(backend as TestBackend, 3);
    const site = await restart();
    await site.webmentions.publish([page]);
    await sleep(300);
    expect(other.posts).toHaveLength(2);
    expect(other.gets.filter((path) => path === "/none")).toHaveLength(1);
  });

  test("an edited essay tells its pages again, the ones it no longer links to as well", async () => {
    const site = await start();
    await site.webmentions.publish([essay(["/by-header", "/by-link"])]);
    await settled(site, 2);
    await site.webmentions.publish([essay(["/by-header", "/by-a"], "<p>Second version.</p>")]);
    await waitFor(() => other.posts.length === 5, { what: "the edit's webmentions" });
    expect(postsTo("/endpoints/header")).toHaveLength(2);
    expect(postsTo("/endpoints/link")).toHaveLength(2);
    expect(postsTo("/endpoints/a")).toHaveLength(1);
    await sleep(200);
    expect(other.posts).toHaveLength(5);
  });

  test("an endpoint that fails for a while is tried again until it accepts", async () => {
    const site = await start();
    await site.webmentions.publish([essay(["/flaky"])]);
    const [row] = await settled(site, 1);
    expect(row).toMatchObject({ status: "sent", attempts: 1, reason: null });
    expect(postsTo("/endpoints/flaky")).toHaveLength(2);
  });

  test("nothing is sent for an essay whose page is not live yet", async () => {
    essayLive = false;
    const site = await start();
    await site.webmentions.publish([essay(["/by-header"])]);
    expect(await sends(site)).toEqual([]);
    expect(other.gets).toEqual([]);
  });
});
