/**
 * The client address and the request's own origin, with and without
 * trusted proxies (TRUST_PROXY), through the real API on a free port with a real SQLite file.
 * Headers a proxy would write are sent by the test itself, as a visitor could send them.
 */
import { request } from "node:http";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { bareAddress, checkOrigin, parseForwarded } from "../../host/forwarded.ts";
import { ConfigError, configWarnings, readConfig } from "../../services/config.ts";
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

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let backend: TestBackend | undefined;
let served: Served | undefined;

beforeEach(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
});

afterEach(async () => {
  await served?.close();
  await backend?.close();
  served = backend = undefined;
  await smtp.stop();
  temp.remove();
});

/** The API with the address reading of production (no test header), a limit of 2 per address. */
async function start(trustProxy: number) {
  backend = await startTestBackend(testConfig(temp.path, { smtpUrl: smtp.url, rateLimit: 2, trustProxy }), {
    clientIp: undefined,
  });
  served = await serveApp(backend.api);
  return served;
}

let count = 0;
const signUp = (url: string, headers: Record<string, string>, origin?: string | null) =>
  postJson(`${url}/api/user`, { email: `reader-${++count}@example.com` }, { headers, origin });

/** A sign-up with a Host header of the test's choosing, which fetch() would not send. */
function signUpWithHost(url: string, headers: Record<string, string>, origin: string): Promise<number> {
  const body = JSON.stringify({ email: `reader-${++count}@example.com` });
  return new Promise((resolve, reject) => {
    const sent = request(
      `${url}/api/user`,
      { method: "POST", headers: { "content-type": "application/json", origin, ...headers } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

describe("without a trusted proxy (TRUST_PROXY=0)", () => {
  test("spoofed X-Forwarded-For and Forwarded headers do not bypass the rate limit", async () => {
    const { url } = await start(0);
    const spoofs: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.1" },
      { forwarded: "for=203.0.113.2" },
      { "x-forwarded-for": "203.0.113.3", forwarded: "for=203.0.113.3", "x-real-ip": "203.0.113.3" },
      { "x-forwarded-for": "203.0.113.4" },
    ];
    const statuses = [];
    for (const headers of spoofs) statuses.push((await signUp(url, headers)).status);
    expect(statuses).toEqual([201, 201, 429, 429]);
  });

  test("forwarded proto and host do not make a foreign Origin the request's own", async () => {
    const { url } = await start(0);
    const answer = await signUp(
      url,
      { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" },
      "https://evil.example",
    );
    expect(answer.status).toBe(403);
  });
});

describe("behind one trusted proxy (TRUST_PROXY=1)", () => {
  test("each forwarded client is counted apart; what a client wrote left of the proxy's entry gains nothing", async () => {
    const { url } = await start(1);
    const first = { "x-forwarded-for": "203.0.113.10" };
    expect((await signUp(url, first)).status).toBe(201);
    expect((await signUp(url, first)).status).toBe(201);
    expect((await signUp(url, first)).status).toBe(429);
    // The same client, forging an address in front of the one the proxy appended.
    expect((await signUp(url, { "x-forwarded-for": "198.51.100.99, 203.0.113.10" })).status).toBe(429);
    expect((await signUp(url, { "x-forwarded-for": "203.0.113.11" })).status).toBe(201);
  });

  test("the RFC 7239 Forwarded header is read when there is no X-Forwarded-For", async () => {
    const { url } = await start(1);
    const client = { forwarded: 'for="[2001:db8::7]:4711";proto=https' };
    expect((await signUp(url, client)).status).toBe(201);
    expect((await signUp(url, client)).status).toBe(201);
    expect((await signUp(url, { forwarded: "for=198.51.100.1, for=2001:db8::7" })).status).toBe(429);
    expect((await signUp(url, { forwarded: "for=192.0.2.60;proto=http" })).status).toBe(201);
  });

  test("the origin the proxy forwarded (X-Forwarded-Proto, Host or X-Forwarded-Host, or Forwarded) is the request's own", async () => {
    const { url } = await start(1);
    const viaNginx = { "x-forwarded-for": "203.0.113.20", "x-forwarded-proto": "https", host: "site.example" };
    expect(await signUpWithHost(url, viaNginx, "https://site.example")).toBe(201);
    const viaCaddy = {
      "x-forwarded-for": "203.0.113.21",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "b.example",
    };
    expect((await signUp(url, viaCaddy, "https://b.example")).status).toBe(201);
    const standard = { forwarded: "for=203.0.113.22;proto=https;host=c.example" };
    expect((await signUp(url, standard, "https://c.example")).status).toBe(201);
    expect(await signUpWithHost(url, viaNginx, "http://site.example")).toBe(403);
    expect(await signUpWithHost(url, viaNginx, "https://evil.example")).toBe(403);
  });
});

test("two trusted proxies: the client is the entry left of the two proxies", async () => {
  const { url } = await start(2);
  // Chain: client, outer proxy (in the header), inner proxy (the TCP peer, 127.0.0.1).
  const client = { "x-forwarded-for": "198.51.100.50, 203.0.113.30, 10.0.0.2" };
  expect((await signUp(url, client)).status).toBe(201);
  expect((await signUp(url, client)).status).toBe(201);
  expect((await signUp(url, { "x-forwarded-for": "203.0.113.30, 10.0.0.3" })).status).toBe(429);
  expect((await signUp(url, { "x-forwarded-for": "203.0.113.31, 10.0.0.2" })).status).toBe(201);
});

describe("origin check", () => {
  test("the request's own origin is accepted besides SITE_URL; a refusal is logged once, in one line, with the reason", async () => {
    const { url } = await start(0);
    expect(url).not.toBe(SITE_URL);
    expect((await signUp(url, {}, url)).status).toBe(201);
    expect((await signUp(url, {}, SITE_URL)).status).toBe(201);
    const before = backend?.logs.length ?? 0;
    expect((await signUp(url, {}, "https://evil.example")).status).toBe(403);
    const refusals = backend?.logs.slice(before) ?? [];
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain("Refused POST /api/user: Origin https://evil.example is neither SITE_URL");
    expect(refusals[0]).toContain(`own origin (${url})`);
    expect(refusals[0]).not.toContain("\n");
  });

  test("checkOrigin refuses Sec-Fetch-Site cross-site, opaque and malformed origins, and passes requests without Origin", () => {
    const allowed = { siteUrl: "https://example.com", ownOrigin: "http://127.0.0.1:3000" };
    const check = (headers: Record<string, string>) => checkOrigin(new Headers(headers), allowed).refused;
    expect(check({})).toBe(false);
    expect(check({ origin: "https://example.com" })).toBe(false);
    expect(check({ origin: "http://127.0.0.1:3000" })).toBe(false);
    expect(check({ origin: "http://127.0.0.1:3000", "sec-fetch-site": "cross-site" })).toBe(true);
    expect(check({ origin: "null" })).toBe(true);
    expect(check({ origin: "not a url" })).toBe(true);
    expect(check({ origin: "https://example.com.evil.example" })).toBe(true);
    expect(checkOrigin(new Headers({ origin: "null" }), { ...allowed, ownOrigin: undefined }).refused).toBe(true);
  });
});

test("Forwarded elements and node spellings are parsed as RFC 7239 writes them", () => {
  expect(parseForwarded('for=192.0.2.43, for="[2001:db8:cafe::17]:4711";proto=https;host="a.example"')).toEqual([
    { for: "192.0.2.43" },
    { for: "[2001:db8:cafe::17]:4711", proto: "https", host: "a.example" },
  ]);
  expect(parseForwarded(undefined)).toEqual([]);
  expect(bareAddress("[2001:db8:cafe::17]:4711")).toBe("2001:db8:cafe::17");
  expect(bareAddress("192.0.2.43:80")).toBe("192.0.2.43");
  expect(bareAddress("2001:db8::1")).toBe("2001:db8::1");
});

describe("configuration", () => {
  const read = (environment: NodeJS.ProcessEnv) =>
    readConfig({ DATA_DIR: temp.path, ...environment }, { ownerEmail: "owner@example.com" });

  test("TRUST_PROXY is a whole number of proxies from 0 to 10, 0 by default", () => {
    expect(read({}).trustProxy).toBe(0);
    expect(read({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    for (const bad of ["yes", "-1", "1.5", "11"]) {
      expect(() => read({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      expect(() => read({ TRUST_PROXY: bad }), bad).toThrow(`TRUST_PROXY="${bad}"`);
    }
  });

  test("a server listening beyond loopback without SITE_URL is warned about, but not one on loopback or with SITE_URL set", () => {
    const warnings = (environment: NodeJS.ProcessEnv) => configWarnings(environment, read(environment));
    expect(warnings({ HOST: "0.0.0.0" })).toEqual([expect.stringMatching(/SITE_URL is not set.*0\.0\.0\.0/)]);
    expect(warnings({ HOST: "::" })).toHaveLength(1);
    expect(warnings({})).toEqual([]);
    expect(warnings({ HOST: "localhost" })).toEqual([]);
    expect(warnings({ HOST: "::1" })).toEqual([]);
    expect(warnings({ HOST: "0.0.0.0", SITE_URL: "https://example.com" })).toEqual([]);
  });
});
