/**
 * The webmention door on the production server (`npm start`'s command on the real build of the
 * fixture site): every page announces it, and other sites' servers reach it although the host
 * refuses cross-site posts to the forms.
 */
import { describe, expect, test } from "vitest";
import { builtSiteUrl, serverForThisFile } from "./production.ts";

const origin = serverForThisFile();

const ENDPOINT_LINK = `<link rel="webmention" href="${new URL("/webmention", builtSiteUrl()).href}"/>`;

describe("discovery", () => {
  test.each(["/", "/write/fear", "/notes", "/no-such-page"])(
    "%s names the site's webmention endpoint",
    async (path) => {
      const page = await (await fetch(`${origin()}${path}`)).text();
      expect(page).toContain(ENDPOINT_LINK);
    },
  );

  test("an HTML answer names the endpoint in its Link header too, for a sender asking with HEAD", async () => {
    for (const path of ["/", "/write/fear"]) {
      const response = await fetch(`${origin()}${path}`, { method: "HEAD" });
      expect(response.headers.get("link")).toBe(`<${new URL("/webmention", builtSiteUrl()).href}>; rel="webmention"`);
    }
    const feed = await fetch(`${origin()}/feeds/writings.atom`, { method: "HEAD" });
    expect(feed.headers.get("link")).toBeNull();
  });
});

describe("POST /webmention", () => {
  const post = (headers: Record<string, string>, body: string) =>
    fetch(`${origin()}/webmention`, {
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
    const response = await fetch(`${origin()}/updates`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://blog.example" },
      body: "email=reader%40example.com",
    });
    expect(response.status).toBe(403);
  });
});
