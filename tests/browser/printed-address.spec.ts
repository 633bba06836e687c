/**
 * The address the server prints at start works for both forms, with and without
 * JavaScript, although SITE_URL is left at its default (http://localhost:3000, another origin):
 * the forms' posts carry the page's own origin, which the server accepts. A server of its own,
 * started as `npm start` starts it after building (host/main.ts on the current build).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { waitForReady } from "./helpers.ts";

test.describe.configure({ mode: "serial", timeout: 90_000 });

let server: ChildProcess;
let printed = "";
let output = "";

test.beforeAll(async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", HOST: "127.0.0.1", RATE_LIMIT: "0", SMTP_URL: "" };
  delete env.SITE_URL;
  env.DATA_DIR = mkdtempSync(join(tmpdir(), "site-printed-"));
  server = spawn(process.execPath, ["--import", "tsx", "host/main.ts"], { cwd: process.cwd(), env });
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));
  await expect.poll(() => /Serving on (http:\/\/\S+)/.exec(output)?.[1], { timeout: 60_000 }).toBeTruthy();
  printed = (/Serving on (http:\/\/\S+)/.exec(output) as RegExpExecArray)[1] as string;
});

test.afterAll(() => {
  server?.kill("SIGTERM");
});

async function signUp(page: Page, javaScript: boolean) {
  await page.goto(`${printed}/updates`);
  if (javaScript) await waitForReady(page);
  await page.getByPlaceholder("Enter your email").fill(`printed-${Date.now()}-${javaScript}@example.com`);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Thank you for your interest :)").first()).toBeVisible();
}

async function sendMessage(page: Page, javaScript: boolean) {
  await page.goto(`${printed}/contact`);
  if (javaScript) await waitForReady(page);
  await page.getByLabel("Email").fill("reader@example.com");
  await page.getByLabel("Subject").fill(`From the printed address (JavaScript ${javaScript ? "on" : "off"})`);
  await page.getByLabel("Message").fill("Hello from the address the server printed.");
  await page.getByRole("button", { name: "send", exact: true }).click();
  await expect(page.getByText("I'll email you back shortly :)")).toBeVisible();
}

async function withPage(browser: Browser, javaScriptEnabled: boolean, work: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled });
  try {
    await work(await context.newPage());
  } finally {
    await context.close();
  }
}

test.describe("the printed address", () => {
  test("both forms work at the printed address with SITE_URL unset, with JavaScript", async ({ browser }) => {
    expect(printed).not.toBe("http://localhost:3000");
    await withPage(browser, true, async (page) => {
      await signUp(page, true);
      await sendMessage(page, true);
    });
    expect(output).not.toContain("Refused");
  });

  test("both forms work at the printed address with SITE_URL unset, without JavaScript", async ({ browser }) => {
    await withPage(browser, false, async (page) => {
      await signUp(page, false);
      await sendMessage(page, false);
    });
    expect(output).not.toContain("Refused");
  });
});
