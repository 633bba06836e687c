import { describe, expect, test } from "vitest";
import { defaultHandle, HANDLE_PATTERN } from "../../catalogue/handle.ts";
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
