import { describe, expect, test } from "vitest";
import { defaultHandle, fediverseAddress, HANDLE_PATTERN, remoteFollowUrl } from "../../catalogue/handle.ts";
import { parseConfig } from "../../services/config.ts";

describe("the fediverse handle", () => {
  test("defaults to the owner's first name in lower case, without accents", () => {
    expect(defaultHandle("Avery Quinn")).toBe("avery");
    expect(defaultHandle("  Zoë Ngata ")).toBe("zoe");
  });

  test("falls back to a plain name when the first name has no Latin letter", () => {
    expect(defaultHandle("李 雷")).toBe("site");
    expect(HANDLE_PATTERN.test(defaultHandle("李 雷"))).toBe(true);
  });
});

describe("FEDERATION_ALLOW_LOOPBACK", () => {
  const defaults = { ownerEmail: "owner@example.com" };

  test("is off unless set to 1", () => {
    expect(parseConfig({}, defaults).federationAllowLoopback).toBe(false);
    expect(parseConfig({ FEDERATION_ALLOW_LOOPBACK: "1" }, defaults).federationAllowLoopback).toBe(true);
  });

  test("is refused with an https SITE_URL, naming the setting", () => {
    expect(() => parseConfig({ FEDERATION_ALLOW_LOOPBACK: "1", SITE_URL: "https://example.com" }, defaults)).toThrow(
      /FEDERATION_ALLOW_LOOPBACK=1 is for local trials over http only/,
    );
  });

  test("a value other than 0 or 1 is refused", () => {
    expect(() => parseConfig({ FEDERATION_ALLOW_LOOPBACK: "yes" }, defaults)).toThrow(/FEDERATION_ALLOW_LOOPBACK/);
  });
});

describe("the remote follow", () => {
  const address = "@avery@site.example";
  const follow = (typed: string, options?: { allowLoopback?: boolean }) =>
    remoteFollowUrl(typed, address, options)?.href ?? null;

  test("goes to the follow page of the server typed, however it is typed", () => {
    const expected = "https://mastodon.social/authorize_interaction?uri=avery%40site.example";
    for (const typed of [
      "mastodon.social",
      " https://mastodon.social/ ",
      "@me@mastodon.social",
      "me@mastodon.social",
    ]) {
      expect(follow(typed)).toBe(expected);
    }
    expect(follow("social.example:8443")).toBe(
      "https://social.example:8443/authorize_interaction?uri=avery%40site.example",
    );
  });

  test("refuses what is not a server's name", () => {
    for (const typed of [
      "",
      "mastodon",
      "mastodon.social/about",
      "a b.example",
      "https://user@evil.example",
      "javascript:alert(1)",
    ]) {
      expect(follow(typed)).toBeNull();
    }
  });

  test("reaches a loopback server over plain http only when allowed", () => {
    expect(follow("127.0.0.1:4000")).toBeNull();
    expect(follow("127.0.0.1:4000", { allowLoopback: true })).toBe(
      "http://127.0.0.1:4000/authorize_interaction?uri=avery%40site.example",
    );
  });

  test("names the site as @handle@host, the port kept", () => {
    expect(fediverseAddress("avery", "http://127.0.0.1:4317/")).toBe("@avery@127.0.0.1:4317");
  });
});
