/**
 * Render limits on the real production server (`npm start`'s command on the real build)
 * with RENDER_CONCURRENCY=1: queries on prerendered pages, the filtered lists' cache, the 503
 * beyond the render limit while the API and the files keep answering, HEAD and GET headers of
 * rendered pages, and a client that gives up mid-body.
 */
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpApp, PREFETCH_FRESH_SECONDS } from "../../host/app.ts";
import { requestOriginReader } from "../../host/forwarded.ts";
import { makeTempDir, SITE_URL, serveApp, sleep, startTestBackend, testClientIp, testConfig } from "./helpers.ts";
import { countingServedBuild, type ProductionServer, servedBuild, startProductionServer } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let server: ProductionServer;
let origin = "";

beforeAll(async () => {
  temp = makeTempDir();
  server = await startProductionServer({ DATA_DIR: temp.path, RENDER_CONCURRENCY: "1", RATE_LIMIT: "0" });
  origin = server.origin;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  temp?.remove();
});

async function get(path: string, init: RequestInit = {}) {
  const response = await fetch(origin + path, init);
  const body = await response.text();
  return { status: response.status, headers: response.headers, body };
}

describe("pages rendered on request", () => {
  test("a query on a prerendered page that it does not filter is answered with the file", async () => {
    for (const [plain, queried] of [
      ["/about", "/about?utm_source=newsletter"],
      ["/notes", "/notes?utm_source=x&fbclid=1"],
      ["/notes", "/notes?sort=date"],
      ["/notes/atomic-habits", "/notes/atomic-habits?q=habit&tag=Fiction"],
      ["/write", "/write?ref=home"],
    ] as const) {
      const [file, answer] = [await get(plain), await get(queried)];
      expect(answer.status, queried).toBe(200);
      expect(answer.headers.get("ETag"), queried).toBe(file.headers.get("ETag"));
      expect(answer.body, queried).toBe(file.body);
    }
  });

  test("one filter in different spellings gets one cached render of the list", async () => {
    const spellings = [
      "/notes?q=habit&tag=Psychology",
      "/notes/?tag=Psychology&q=habit&utm_source=x",
      "/notes//index.html?q=other&q=habit&tag=Psychology&sort=date",
      "/%6eotes?q=%68abit&tag=Psychology",
    ];
    const answers = [];
    for (const path of spellings) answers.push(await get(path, { headers: { "Accept-Encoding": "identity" } }));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ETag")).toBe(answers[0]?.headers.get("ETag"));
      expect(answer.body).toBe(answers[0]?.body);
    }
    expect(answers[0]?.body).toContain('value="habit"');
    const compressed = await fetch(`${origin}${spellings[1]}`, { headers: { "Accept-Encoding": "br" } });
    expect(compressed.headers.get("Content-Encoding")).toBe("br");
    expect(compressed.headers.get("ETag")).not.toBe(answers[0]?.headers.get("ETag"));
    const revalidated = await fetch(`${origin}${spellings[2]}`, {
      headers: { "Accept-Encoding": "identity", "If-None-Match": answers[0]?.headers.get("ETag") ?? "" },
    });
    expect(revalidated.status).toBe(304);
  });

  test("a page or its data fetched ahead of a click is kept for the click, and revalidated when asked for plainly", async () => {
    const home = await get("/");
    const asset = home.body.match(/\/assets\/[\w-]+\.(?:css|js)/)?.[0];
    expect(asset).toBeDefined();
    expect((await get(asset ?? "")).headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    for (const path of ["/notes/atomic-habits", "/notes/atomic-habits.data?_routes=routes%2Fnote", "/notes?q=habit"]) {
      const plain = await get(path);
      expect(plain.status, path).toBe(200);
      expect(plain.headers.get("Cache-Control"), path).toBe("public, max-age=0, must-revalidate");
      for (const purpose of ["prefetch", "prefetch;prerender"]) {
        const ahead = await get(path, { headers: { "Sec-Purpose": purpose } });
        expect(ahead.body, path).toBe(plain.body);
        expect(ahead.headers.get("Cache-Control"), `${path} ${purpose}`).toBe(
          `private, max-age=${PREFETCH_FRESH_SECONDS}`,
        );
      }
    }
  });

  test("beyond RENDER_CONCURRENCY a render gets a fast 503 with Retry-After, while the API and the files answer", async () => {
    const burst = Array.from({ length: 60 }, (_, index) => get(`/notes?q=burst-${index}-${Date.now()}`));
    const others: { what: string; status: number }[] = [];
    for (let round = 0; round < 5; round++) {
      const signup = await fetch(`${origin}/api/user`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: origin },
        body: JSON.stringify({ email: `reader-${round}-${Date.now()}@example.com` }),
      });
      await signup.arrayBuffer();
      others.push({ what: "POST /api/user", status: signup.status });
      for (const path of ["/", "/about", "/notes"])
        others.push({ what: `GET ${path}`, status: (await get(path)).status });
    }
    const answers = await Promise.all(burst);
    const busy = answers.filter((answer) => answer.status === 503);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect(answer.headers.get("Cache-Control")).toBe("no-store");
      expect(answer.body).toMatch(/busy/i);
    }
    expect(others.filter((other) => other.status >= 300)).toEqual([]);
    // Once the burst is over, the list renders again.
    expect((await get("/notes?q=after-the-burst")).status).toBe(200);
  });

  test("a HEAD request for a server-rendered page carries the Content-Type, CSP and Cache-Control of GET, with a charset", async () => {
    for (const path of ["/no-such-page", "/updates/confirm?token=not-a-token", "/notes?q=head-check"]) {
      const [head, full] = [await fetch(origin + path, { method: "HEAD" }), await fetch(origin + path)];
      await full.text();
      expect(head.status, path).toBe(full.status);
      expect(full.headers.get("Content-Type"), path).toBe("text/html; charset=utf-8");
      for (const name of ["Content-Type", "Content-Security-Policy", "Cache-Control"]) {
        expect(head.headers.get(name), `${path} ${name}`).toBe(full.headers.get(name));
      }
      expect(full.headers.get("Content-Security-Policy"), path).toContain("script-src 'self' 'sha256-");
    }
  });

  test("a client that closes the connection mid-body is not logged as a server error", async () => {
    const before = server.output().length;
    const { port, hostname } = new URL(origin);
    for (const path of ["/api/email", "/api/user", "/contact"]) {
      await new Promise<void>((done, fail) => {
        const socket = connect(Number(port), hostname, () => {
          const type = path === "/contact" ? "application/x-www-form-urlencoded" : "application/json";
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nOrigin: ${origin}\r\n` +
              `Content-Type: ${type}\r\nContent-Length: 1000\r\n\r\n{"email":`,
          );
          setTimeout(() => {
            socket.destroy();
            done();
          }, 200);
        });
        socket.on("error", fail);
      });
    }
    await sleep(500);
    const logged = server.output().slice(before);
    expect(logged).not.toMatch(/failed|Error|at /);
    expect((await get("/about")).status).toBe(200);
  });

  test("when the one render slot is taken, a list render is refused at once and the API, the files and the not-found page still answer", async () => {
    let letRenderFinish = () => {};
    const renderHeld = new Promise<void>((resolve) => {
      letRenderFinish = resolve;
    });
    // The list render of "held" waits, holding the only slot, until the test lets it go.
    const { build: counted, renders } = await countingServedBuild((url) =>
      url.includes("held") ? renderHeld : undefined,
    );
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
      renders: { concurrency: 1, cacheBytes: 1024 * 1024 },
      log: () => {},
    });
    const served = await serveApp(app);
    try {
      const held = fetch(`${served.url}/notes?q=held`);
      await sleep(100);
      const refused = await fetch(`${served.url}/notes?q=another`, { headers: { "x-test-ip": "198.51.100.9" } });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("Retry-After")).toBe("2");
      expect(await refused.text()).toMatch(/busy/i);
      for (const path of ["/no-such-page", "/another/missing/page", "/missing.data"]) {
        const notFound = await fetch(served.url + path);
        expect(notFound.status).toBe(404);
        expect(await notFound.text()).toContain("not-found");
      }
      const signup = await fetch(`${served.url}/api/user`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: SITE_URL },
        body: JSON.stringify({ email: "while-busy@example.com" }),
      });
      expect(signup.status).toBe(201);
      for (const path of ["/", "/about", "/notes", "/notes?utm_source=x", "/robots.txt"]) {
        const answer = await fetch(served.url + path);
        await answer.arrayBuffer();
        expect(answer.status, path).toBe(200);
      }
      // Only the held list and, once, the not-found page were rendered: the files were no render.
      expect(renders()).toBe(2);
      letRenderFinish();
      expect((await held).status).toBe(200);
    } finally {
      letRenderFinish();
      await served.close();
      await backend.close();
      dataDir.remove();
    }
  });

  test("a site search is rendered once and cached like a filtered list; a blank or huge query never fails", async () => {
    const spellings = ["/search?q=miners", "/search?q=%20miners&utm_source=x", "/search?q=other&q=miners"];
    const answers = [];
    for (const path of spellings) answers.push(await get(path, { headers: { "Accept-Encoding": "identity" } }));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ETag")).toBe(answers[0]?.headers.get("ETag"));
    }
    expect(answers[0]?.body).toContain("<mark>miners</mark>");
    const [plain, blank] = [await get("/search"), await get("/search?q=%20%20")];
    expect(blank.headers.get("ETag")).toBe(plain.headers.get("ETag"));
    expect((await get(`/search?q=${"x".repeat(5_000)}`)).status).toBe(200);
  });
});
