/** SITE_URL, read in one place by the build and the server. */
import { describe, expect, test } from "vitest";
import {
  absoluteUrl,
  DEFAULT_SITE_URL,
  parseSiteUrl,
  SITE_URL_PROBLEM,
  siteUrlFromEnvironment,
} from "../../catalogue/site-url.ts";
import { ConfigError, parseConfig } from "../../services/config.ts";

describe("SITE_URL", () => {
  test("an unset or empty value means http://localhost:3000 and a URL is reduced to its origin", () => {
    expect(DEFAULT_SITE_URL).toBe("http://localhost:3000");
    expect(siteUrlFromEnvironment({})).toBe(DEFAULT_SITE_URL);
    expect(siteUrlFromEnvironment({ SITE_URL: "" })).toBe(DEFAULT_SITE_URL);
    expect(siteUrlFromEnvironment({ SITE_URL: "https://Example.com/blog/?x=1" })).toBe("https://example.com");
    expect(siteUrlFromEnvironment({ SITE_URL: "http://127.0.0.1:4317/" })).toBe("http://127.0.0.1:4317");
  });

  test("anything but an http(s) URL is refused with a message naming the variable", () => {
    for (const bad of ["example.com", "ftp://example.com", "https://", "javascript:alert(1)"]) {
      expect(parseSiteUrl(bad)).toEqual({ ok: false, problem: SITE_URL_PROBLEM });
      expect(() => siteUrlFromEnvironment({ SITE_URL: bad })).toThrow(
        `SITE_URL=${JSON.stringify(bad)} ${SITE_URL_PROBLEM}`,
      );
    }
  });

  test("the server's configuration reads SITE_URL the same way, without preparing a data folder", () => {
    const defaults = { ownerEmail: "owner@example.com" };
    expect(parseConfig({}, defaults).siteUrl).toBe(siteUrlFromEnvironment({}));
    expect(parseConfig({ SITE_URL: "https://example.com/x" }, defaults).siteUrl).toBe("https://example.com");
    expect(() => parseConfig({ SITE_URL: "nope" }, defaults)).toThrow(ConfigError);
    expect(() => parseConfig({ SITE_URL: "nope" }, defaults)).toThrow(`SITE_URL="nope" ${SITE_URL_PROBLEM}`);
  });

  test("absoluteUrl puts a site path on the origin and leaves a full URL alone", () => {
    expect(absoluteUrl("https://e.com", "/notes/x")).toBe("https://e.com/notes/x");
    expect(absoluteUrl("https://e.com", "/")).toBe("https://e.com/");
    expect(absoluteUrl("https://e.com", "https://cdn.e.com/a.png")).toBe("https://cdn.e.com/a.png");
  });
});
