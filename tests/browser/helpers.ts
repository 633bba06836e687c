import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Zero axe violations, with the offending rules and nodes in the failure message. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(summary).toEqual([]);
}

/** Fails the test if the page asks any host but ours for anything (the podcast and video players aside). */
export function trackForeignRequests(page: Page, allowedOrigins: readonly string[] = []) {
  const foreign: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol === "data:" || url.hostname === "127.0.0.1" || url.hostname === "localhost") return;
    if (allowedOrigins.includes(url.origin)) return;
    foreign.push(request.url());
  });
  return () => expect(foreign).toEqual([]);
}

/**
 * Waits until the page can be used: the shell script has wired its buttons and, on a page that
 * ships React, React has hydrated (pages without a module script never hydrate).
 */
export async function waitForReady(page: Page) {
  await page.waitForFunction(() => {
    const root = document.documentElement;
    const hydrates = document.querySelector('script[type="module"]') !== null;
    return root.dataset.shell === "ready" && (!hydrates || root.dataset.hydrated === "true");
  });
}
