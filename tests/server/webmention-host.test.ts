/**
 * The webmention door on the production server (`npm start`'s command on the real build of the
 * fixture site): every page announces it, and other sites' servers reach it although the host
 * refuses cross-site posts to the forms.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { makeTempDir } from "./helpers.ts";
import { builtSiteUrl, type ProductionServer, startProductionServer } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let server: ProductionServer;

beforeAll(async () => {
  temp = makeTempDir();
  server = await startProductionServer({ DATA_DIR: temp.path, RATE_LIMIT: "0" });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  temp?.remove();
});

const ENDPOINT_LINK = `<link rel="webmention" href="${new URL("/webmention", builtSiteUrl()).href}"/>`;

describe("discovery", () => {
  test.each(["/", "/write/fear", "/notes", "/no-such-page"])(
    "%s names the site's webmention endpoint",
    async (path) => {
      const page = await (await fetch(`${server.origin}${path}`)).text();
      expect(page).toContain(ENDPOINT_LINK);
    },
  );

  test("an HTML answer names the endpoint in its Link header too, for a sender asking with HEAD", async () => {
    for (const path of ["/", "/write/fear"]) {
      const response = await fetch(`${server.origin}${path}`, { method: "HEAD" });
      expect(response.headers.get("link")).toBe(`<${new URL("/webmention", builtSiteUrl()).href}>; rel="webmention"`);
    }
    const feed = await fetch(`${server.origin}/feeds/writings.atom`, { method: "HEAD" });
    expect(feed.headers.get("link")).toBeNull();
  });
});

describe("POST /webmention", () => {
  const post = (headers: Record<string, string>, body: string) =>
    fetch(`${server.origin}/webmention`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body,
    });
  const target = new URL("/write/fear", builtSiteUrl()).href;

  test("from another site's server, with another Origin or none, is stored and answered 202", async () => {
    const fields = new URLSearchParams({ source: "https://blog.example/replies/1", target }).toString();
    expect((await post({}, fields)).status).toBe(202);
    expect((await post({ origin: "https://blog.example" }, fields)).status).toBe(202);
  });

  test("is refused with the door's own words, not the host's cross-site refusal", async () => {
    const response = await post({ origin: "https://blog.example" }, "source=nonsense");
    expect([response.status, await response.text()]).toEqual([400, "The source must be an http or https address."]);
  });

  test("a form post from another site is still refused", async () => {
    const response = await fetch(`${server.origin}/updates`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://blog.example" },
      body: "email=reader%40example.com",
    });
    expect(response.status).toBe(403);
  });
});
