/**
 * The host's built files, served from a temporary client folder by the real app on the served
 * build's routes: one file whatever the request's spelling, nothing outside the folder, a file
 * changed on disk served as it now is, and paths no file can have answered 404 with one log line.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpApp } from "../../host/app.ts";
import { requestOriginReader } from "../../host/forwarded.ts";
import {
  makeTempDir,
  type Served,
  SITE_URL,
  serveApp,
  startTestBackend,
  type TestBackend,
  testClientIp,
  testConfig,
} from "./helpers.ts";
import { countingServedBuild } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let backend: TestBackend;
let served: Served;
const logged: string[] = [];

beforeAll(async () => {
  temp = makeTempDir();
  const clientDir = join(temp.path, "client");
  mkdirSync(join(clientDir, "notes"), { recursive: true });
  writeFileSync(join(clientDir, "notes/index.html"), "<!doctype html><title>Notes</title>");
  writeFileSync(join(clientDir, "notes/index.html.br"), "br-copy");
  writeFileSync(join(clientDir, "notes/index.html.gz"), "gz-copy");
  backend = await startTestBackend(testConfig(join(temp.path, "data")), { startOutbox: false });
  const app = createHttpApp({
    build: (await countingServedBuild()).build,
    mode: "production",
    clientDir,
    siteUrl: SITE_URL,
    backend,
    clientIp: testClientIp,
    ownOrigin: requestOriginReader(0),
    renders: { concurrency: 1, cacheBytes: 1024 * 1024 },
    log: (message) => logged.push(message),
  });
  served = await serveApp(app);
}, 300_000);

afterAll(async () => {
  await served?.close();
  await backend?.close();
  temp?.remove();
});

/** A GET of the path exactly as written: fetch would resolve its dots. */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; etag?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${served.url}${path}`, { headers }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, body }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

describe("the built files", () => {
  test("every spelling of one file is answered with it", async () => {
    for (const spelling of ["/notes", "/notes/", "/notes//index.html", "/%6eotes/", "/notes/index.html", "/./notes/"]) {
      const answer = await get(spelling, { "Accept-Encoding": "identity" });
      expect(answer.status, spelling).toBe(200);
      expect(answer.body, spelling).toBe("<!doctype html><title>Notes</title>");
    }
  });

  test("each encoding is its own copy with its own ETag", async () => {
    const answers = await Promise.all(
      ["br", "gzip", "identity"].map((encoding) => get("/notes", { "Accept-Encoding": encoding })),
    );
    expect(answers.map((answer) => answer.body.slice(0, 7))).toEqual(["br-copy", "gz-copy", "<!docty"]);
    expect(new Set(answers.map((answer) => answer.etag)).size).toBe(3);
  });

  test("traversal attempts and the compressed copies themselves are not served", async () => {
    for (const attempt of ["/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/notes/..%2f..%2f..%2fetc/passwd"]) {
      const answer = await get(attempt);
      expect(answer.status, attempt).toBe(404);
      expect(answer.body, attempt).not.toContain("root:x:0");
    }
    for (const copy of ["/notes/index.html.br", "/notes/index.html.gz"]) expect((await get(copy)).status).toBe(404);
  });

  test("a file changed on disk is served as it now is, with a new ETag", async () => {
    const before = await get("/notes/", { "Accept-Encoding": "identity" });
    // As a build writes a file: anew, never into the one a request may still be reading.
    const file = join(temp.path, "client/notes/index.html");
    writeFileSync(`${file}.new`, "<!doctype html><title>Changed notes</title>");
    renameSync(`${file}.new`, file);
    const after = await get("/notes/", { "Accept-Encoding": "identity" });
    expect(after.body).toContain("Changed notes");
    expect(after.etag).not.toBe(before.etag);
  });

  test("a path no file can have is a 404 logged with its reason, whatever the disk would say of it", async () => {
    const reasons = {
      [`/${"a".repeat(256)}`]: "a segment longer than 255 bytes",
      [`/${"é".repeat(128)}`]: "a segment longer than 255 bytes",
      [`/${"a/".repeat(600)}`]: "longer than 1024 bytes",
      "/%ZZ": "bad percent-encoding",
      "/notes/%00/x": "a NUL byte",
    };
    for (const [path, reason] of Object.entries(reasons)) {
      logged.length = 0;
      expect((await get(encodeURI(path).replaceAll("%25", "%"))).status, reason).toBe(404);
      expect(logged, reason).toEqual([expect.stringMatching(new RegExp(`^Not found, ${reason}: `))]);
    }
    logged.length = 0;
    expect((await get(`/${"a".repeat(255)}`)).status).toBe(404);
    // A file's name used as a folder: the disk answers ENOTDIR.
    expect((await get("/notes/index.html/x")).status).toBe(404);
    expect(logged).toEqual([]);
  });
});
