import { expect, test } from "@playwright/test";
import { waitForReady } from "./helpers.ts";

const COMMON = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
};

function expectCommon(headers: Record<string, string>, what: string) {
  for (const [name, value] of Object.entries(COMMON)) expect(headers[name], `${what}: ${name}`).toBe(value);
  expect(headers["permissions-policy"], what).toContain("camera=()");
}

function expectPagePolicy(headers: Record<string, string>, what: string) {
  const csp = headers["content-security-policy"] ?? "";
  const scriptSrc = csp.split(";").find((directive) => directive.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc, what).not.toContain("unsafe-inline");
  expect(scriptSrc, what).toContain("'sha256-");
  for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
    expect(csp, what).toContain(directive);
  }
  expect(csp, what).toContain("frame-src https://open.spotify.com https://www.youtube-nocookie.com");
}

test.describe("response headers", () => {
  test("an HTML page, an asset, an API answer and a 404 all carry the security headers", async ({ request }) => {
    const page = await request.get("/notes");
    expect(page.status()).toBe(200);
    expectCommon(page.headers(), "page");
    expectPagePolicy(page.headers(), "page");

    const html = await page.text();
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const script = await request.get(asset ?? "", { headers: { "Accept-Encoding": "br" } });
    expect(script.status()).toBe(200);
    expectCommon(script.headers(), "asset");
    expect(script.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

    const api = await request.post("/api/user", { data: { email: "not-an-email" } });
    expect(api.status()).toBe(400);
    expectCommon(api.headers(), "api");
    expect(api.headers()["content-type"]).toContain("application/json");

    const missing = await request.get("/no/such/page");
    expect(missing.status()).toBe(404);
    expectCommon(missing.headers(), "404");
    expectPagePolicy(missing.headers(), "404");
    expect(await missing.text()).not.toMatch(/at .+\.(js|ts):\d+/);
  });

  test("prerendered pages are served precompressed and without a redirect", async ({ request }) => {
    for (const encoding of ["br", "gzip"]) {
      const response = await request.get("/notes", { headers: { "Accept-Encoding": encoding }, maxRedirects: 0 });
      expect(response.status()).toBe(200);
      expect(response.headers()["content-encoding"]).toBe(encoding);
    }
  });

  test("a prerendered page's CSP hashes let every inline script run, so there is no violation and the page hydrates", async ({
    page,
  }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    for (const path of ["/", "/notes", "/notes/atomic-habits", "/write", "/contact", "/no/such/page"]) {
      await page.goto(path);
      // The theme script in the head ran, and so did React Router's: the page hydrated.
      await expect(page.locator("html"), path).toHaveAttribute("data-theme", /.+/);
      await waitForReady(page);
    }
    expect(violations).toEqual([]);
  });
});
