/**
 * The client address behind a proxy, for real: Debian's nginx, with the proxy lines of deploy/nginx/proxy.conf, in
 * front of the production server started with TRUST_PROXY=1. Clients connect to nginx from two
 * loopback addresses (127.0.0.2 and 127.0.0.3, each a different visitor to nginx) and are counted
 * apart by the rate limit; a client that forges X-Forwarded-For gains nothing. A page's own origin
 * through the proxy passes the origin check. `.ci/run` installs nginx; without it this test fails
 * and says so.
 */
import { mkdirSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningNginx, startNginx } from "../support/nginx.ts";
import { makeTempDir, waitFor } from "./helpers.ts";
import { type ProductionServer, root, startProductionServer } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let server: ProductionServer;
let nginx: RunningNginx | undefined;
let proxyUrl = "";

beforeAll(async () => {
  temp = makeTempDir("site-proxy-");
  const dataDir = join(temp.path, "data");
  mkdirSync(dataDir);
  server = await startProductionServer({ DATA_DIR: dataDir, TRUST_PROXY: "1", RATE_LIMIT: "2" });
  nginx = await startNginx({
    dir: join(temp.path, "nginx"),
    upstreams: [new URL(server.origin).host],
    serverLines: [`include ${join(root, "deploy/nginx/proxy.conf")};`],
  });
  proxyUrl = nginx.url;
}, 300_000);

afterAll(async () => {
  nginx?.stop();
  await server?.stop();
  temp?.remove();
});

let count = 0;

/** A JSON sign-up through nginx from the given local address (a different visitor for nginx). */
function signUpFrom(localAddress: string, headers: Record<string, string> = {}): Promise<number> {
  const body = JSON.stringify({ email: `proxied-${++count}@example.com` });
  return new Promise((resolve, reject) => {
    const sent = request(
      `${proxyUrl}/api/user`,
      { method: "POST", localAddress, headers: { "content-type": "application/json", ...headers } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

test("behind nginx with TRUST_PROXY=1, visitors from 127.0.0.2 and 127.0.0.3 are rate-limited apart", async () => {
  expect(await signUpFrom("127.0.0.2")).toBe(201);
  expect(await signUpFrom("127.0.0.2")).toBe(201);
  expect(await signUpFrom("127.0.0.2")).toBe(429);
  expect(await signUpFrom("127.0.0.3")).toBe(201);
});

test("behind nginx, a forged X-Forwarded-For or Forwarded gains a limited visitor nothing", async () => {
  const forgeries: Record<string, string>[] = [
    { "x-forwarded-for": "203.0.113.99" },
    { "x-forwarded-for": "127.0.0.3" },
    { forwarded: "for=203.0.113.98" },
  ];
  for (const forged of forgeries) {
    expect(await signUpFrom("127.0.0.2", forged), JSON.stringify(forged)).toBe(429);
  }
});

test("behind nginx, a post from the page's own origin at the proxy's address passes the origin check", async () => {
  // SITE_URL is the build's; the proxy's address is another origin, accepted as the request's own.
  expect(new URL(proxyUrl).origin).not.toBe(new URL(server.origin).origin);
  expect(await signUpFrom("127.0.0.4", { origin: proxyUrl })).toBe(201);
  expect(await signUpFrom("127.0.0.5", { origin: "https://evil.example" })).toBe(403);
  await waitFor(() => server.output().includes("Refused POST /api/user: Origin https://evil.example"), {
    what: "the refusal in the server's log",
  });
});
