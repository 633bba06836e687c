/**
 * What the host answers without a render, on the production server (`npm start`'s command on the
 * real build): methods it does not serve, paths no file can have, conditional requests; and renders
 * shared between visitors, so that one client's searches cannot take everyone's. Whether a render
 * happened is counted on the same build served in process, its document renderer wrapped.
 */
import { request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpApp } from "../../host/app.ts";
import { requestOriginReader } from "../../host/forwarded.ts";
import { routesOf } from "../../host/routes.ts";
import { makeTempDir, SITE_URL, serveApp, sleep, startTestBackend, testClientIp, testConfig } from "./helpers.ts";
import { countingServedBuild, type ProductionServer, servedBuild, startProductionServer } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let server: ProductionServer;

beforeAll(async () => {
  temp = makeTempDir();
  server = await startProductionServer({ DATA_DIR: temp.path, RENDER_CONCURRENCY: "2", RATE_LIMIT: "0" });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  temp?.remove();
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** Any method (fetch refuses TRACE), on a connection of its own from `localAddress`. */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  localAddress = "127.0.0.1",
  origin = server.origin,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${origin}${path}`, { method, headers, localAddress, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

const PAGES = ["/", "/quotes", "/notes", "/about"];
const UNSERVED = ["OPTIONS", "PROPFIND", "TRACE", "PUT", "DELETE", "PATCH"];

describe("methods", () => {
  test("methods other than GET, HEAD and POST get a short 405 with Allow, never a page", async () => {
    for (const path of PAGES) {
      for (const method of UNSERVED) {
        const answer = await send(method, path);
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.headers.allow, `${method} ${path}`).toBe("GET, HEAD");
        expect(answer.body.length, `${method} ${path}`).toBeLessThan(100);
        expect(answer.body).not.toMatch(/<html|<!doctype/i);
      }
    }
  });

  test("a POST is refused with 405 where no form lives, and Allow names it where one does", async () => {
    for (const path of ["/about", "/notes", "/quotes", "/no-such-page", "/"]) {
      const answer = await send("POST", path, { "Content-Type": "application/x-www-form-urlencoded" });
      expect(answer.status, path).toBe(405);
      expect(answer.headers.allow, path).toBe("GET, HEAD");
      expect(answer.body).not.toMatch(/<html/i);
    }
    for (const path of [
      "/contact",
      "/contact.data",
      "/updates",
      "/?index",
      "/updates/unsubscribe",
      "/write/fear",
      "/notes/atomic-habits",
      "/replies/confirm",
    ]) {
      expect((await send("OPTIONS", path)).headers.allow, path).toBe("GET, HEAD, POST");
    }
  });

  test("a method name Node does not know is refused by the server itself, with no page", async () => {
    const { port, hostname } = new URL(server.origin);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(`FROBNICATE /quotes HTTP/1.1\r\nHost: x\r\n\r\n`),
      );
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString();
      });
      socket.on("close", () => resolve(received));
      socket.on("error", reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(reply).not.toMatch(/<html/i);
  });
});

describe("paths no file can have", () => {
  const unreadable = [
    `/${"a".repeat(256)}`,
    `/notes/${"é".repeat(200)}`,
    `/${"segment/".repeat(600)}`,
    "/notes/%ZZ",
    "/%E0%A4%A",
    "/notes/%00",
    `/notes/${"%00".repeat(1000)}`,
  ];

  test("an over-long or unreadable path is a short 404, logged in one short line without a stack", async () => {
    const before = server.output().length;
    for (const path of unreadable) {
      for (const method of ["GET", "HEAD", "POST"]) {
        const answer = await send(method, path);
        expect(answer.status, `${method} ${path.slice(0, 40)}`).toBe(404);
        expect(answer.body.length).toBeLessThan(100);
      }
    }
    await sleep(200);
    const lines = server.output().slice(before).trim().split("\n");
    expect(lines).toHaveLength(unreadable.length * 3);
    for (const line of lines) {
      expect(line).toMatch(/^Not found, /);
      expect(line.length).toBeLessThan(200);
    }
  });

  test("a file's name used as a folder is the not-found page, not a server error", async () => {
    for (const path of ["/robots.txt/x", "/favicon.svg/a/b", "/notes/atomic-habits/index.html/x"]) {
      const answer = await send("GET", path);
      expect(answer.status, path).toBe(404);
    }
    expect(server.output()).not.toMatch(/ENOTDIR|ENAMETOOLONG|\n\s+at /);
  });
});

describe("conditional requests", () => {
  test("each encoding has its own ETag, and Vary names Accept-Encoding", async () => {
    const tags = new Set<string>();
    for (const encoding of ["br", "gzip", "identity"]) {
      const answer = await send("GET", "/about", { "Accept-Encoding": encoding });
      expect(answer.headers["content-encoding"] ?? "identity").toBe(encoding);
      expect(answer.headers.vary).toBe("Accept-Encoding");
      tags.add(String(answer.headers.etag));
    }
    expect(tags.size).toBe(3);
  });

  test("a weak tag, a list holding the tag and * are each answered 304; another tag gets the page", async () => {
    for (const path of ["/about", "/notes?q=habit", "/search-index.json"]) {
      const headers = { "Accept-Encoding": "gzip" };
      const tag = String((await send("GET", path, headers)).headers.etag);
      for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, `W/"other",W/${tag}`, "*"]) {
        const answer = await send("GET", path, { ...headers, "If-None-Match": ifNoneMatch });
        expect(answer.status, `${path} ${ifNoneMatch}`).toBe(304);
        expect(answer.headers.etag).toBe(tag);
        expect(answer.body).toBe("");
      }
      const other = await send("GET", path, { ...headers, "If-None-Match": `"other", W/"another"` });
      expect(other.status).toBe(200);
      const brotli = await send("GET", path, { "Accept-Encoding": "br", "If-None-Match": tag });
      expect(brotli.status, `${path}: the gzip tag does not stand for the brotli bytes`).toBe(200);
    }
  });
});

describe("renders shared between visitors", () => {
  const costly = Array.from({ length: 100 }, (_, at) => "bcdefghjklmnopqrstuvwxyz"[at % 24]).join(" ");

  test("while one address sends new searches on two connections, another address's new searches and lists are all answered", async () => {
    let flooding = true;
    let sent = 0;
    const statuses = new Map<number, number>();
    const flood = Array.from({ length: 2 }, async () => {
      while (flooding) {
        const query = `${costly} ${sent++}`;
        const { status } = await send("GET", `/search?${new URLSearchParams({ q: query })}`);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    });
    await sleep(200);
    const other: number[] = [];
    for (let at = 0; at < 10; at++) {
      for (const path of [`/search?q=miners+${at}`, `/notes?q=habit-${at}`]) {
        other.push((await send("GET", path, {}, "127.0.0.2")).status);
      }
    }
    flooding = false;
    await Promise.all(flood);
    expect(other).toEqual(Array(20).fill(200));
    expect([...statuses.keys()].every((status) => status === 200 || status === 503)).toBe(true);
  });
});

describe("what the build's routes declare", () => {
  test("the lists and the search read a query, the token pages are rendered per request, in any spelling", async () => {
    const build = (await import(pathToFileURL(join(servedBuild, "server/index.js")).href)) as ServerBuild;
    const routes = routesOf(build);
    const params = new URLSearchParams("?utm_source=x&q=habit&tag=Fiction");
    expect(routes.renderHandle("/notes").query?.(params)).toBe("?q=habit&tag=Fiction");
    expect(routes.renderHandle("/write").query?.(params)).toBe("?q=habit&tag=Fiction");
    expect(routes.renderHandle("/search").query?.(params)).toBe("?q=habit");
    for (const path of ["/", "/about", "/notes/a-winter-almanac", "/write/fear", "/notes/shelves", "/updates"])
      expect(routes.renderHandle(path).query, path).toBeUndefined();
    for (const path of ["/updates/confirm", "/updates//unsubscribe/", "/updates/%63onfirm", "/updates/confirm.data"])
      expect(routes.renderHandle(path).perRequest, path).toBe(true);
    for (const path of ["/updates/an-issue", "/notes", "/%E0%A4%A"])
      expect(routes.renderHandle(path).perRequest, path).toBeUndefined();
  });
});

describe("renders counted on the same build, served in process", () => {
  test("refused methods and unreadable paths render nothing; a client's second search waits for its first while another client's is answered", async () => {
    let letRenderFinish = () => {};
    const held = new Promise<void>((resolve) => {
      letRenderFinish = resolve;
    });
    // A search of "held" holds its render until the test lets it go.
    const { build: counted, renders } = await countingServedBuild((url) => (url.includes("held") ? held : undefined));
    const dataDir = makeTempDir();
    const backend = await startTestBackend(testConfig(dataDir.path), { startOutbox: false });
    const app = createHttpApp({
      build: counted,
      mode: "production",
      clientDir: join(servedBuild, "client"),
      siteUrl: SITE_URL,
      backend,
      clientIp: testClientIp,
      ownOrigin: requestOriginReader(0),
      renders: { concurrency: 2, cacheBytes: 1024 * 1024 },
      log: () => {},
    });
    const served = await serveApp(app);
    try {
      for (const method of UNSERVED)
        expect((await send(method, "/quotes", {}, "127.0.0.1", served.url)).status).toBe(405);
      expect((await send("POST", "/about", {}, "127.0.0.1", served.url)).status).toBe(405);
      expect((await send("GET", `/${"a".repeat(300)}`, {}, "127.0.0.1", served.url)).status).toBe(404);
      expect(renders()).toBe(0);
      // The counter counts: a form post is rendered (here an unreadable one, answered by the page).
      const post = await send(
        "POST",
        "/contact",
        { Origin: served.url, "Content-Type": "text/plain" },
        "127.0.0.1",
        served.url,
      );
      expect(post.status).toBe(415);
      expect(renders()).toBe(1);
      const visitor = { "x-test-ip": "198.51.100.1" };
      const holding = send("GET", "/search?q=held", visitor, "127.0.0.1", served.url);
      await sleep(100);
      let secondAnswered = false;
      const second = send("GET", "/search?q=second", visitor, "127.0.0.1", served.url).then((answer) => {
        secondAnswered = true;
        return answer;
      });
      const another = { "x-test-ip": "198.51.100.2" };
      expect((await send("GET", "/search?q=another", another, "127.0.0.1", served.url)).status).toBe(200);
      expect(secondAnswered).toBe(false);
      letRenderFinish();
      expect([(await holding).status, (await second).status]).toEqual([200, 200]);
    } finally {
      letRenderFinish();
      await served.close();
      await backend.close();
      dataDir.remove();
    }
  });
});
