import { expect, test } from "vitest";
import { absoluteLinks } from "../../services/federation/publish.ts";

test("a body's own links and images name the site; outside and protocol-relative ones are kept", () => {
  const html =
    '<a href="/write/fear">Fear</a> <img src="/images/a.svg"> <a href="https://example.org/x">x</a> <a href="//cdn.example/y">y</a>';
  expect(absoluteLinks(html, "https://site.example")).toBe(
    '<a href="https://site.example/write/fear">Fear</a> <img src="https://site.example/images/a.svg"> <a href="https://example.org/x">x</a> <a href="//cdn.example/y">y</a>',
  );
});
