/**
 * The whole life of a subscriber, on the production server with its real SMTP server:
 * sign-up, the confirmation mail, a mail scanner's GET of the link (confirms nothing), the Confirm
 * button, an issue sent by the owner's command, a one-click unsubscribe posted like a mail provider
 * does (no cookie, no Origin), and no mail after that. Once with JavaScript, once without.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, type Page, test } from "@playwright/test";
import { catalogue, FIXTURE_CONTENT_ROOT } from "./fixture-site.ts";
import { waitForReady } from "./helpers.ts";
import { confirmationLink, mailsTo, waitForMail } from "./mailbox.ts";

// Each send goes to every confirmed subscriber: the two lives run one after the other so that
// each counts only the issues meant for it.
test.describe.configure({ mode: "serial" });

const [laterIssue, firstIssue] = catalogue.updates;
const dataDir = process.env.TEST_DATA_DIR ?? "";

/** `npm run newsletter -- …` as the owner runs it on the server's machine: same DATA_DIR, same SMTP server. */
async function newsletter(baseURL: string, ...args: string[]): Promise<{ code: number; output: string }> {
  const run = promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/newsletter.ts", ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      DATA_DIR: dataDir,
      CONTENT_ROOT: FIXTURE_CONTENT_ROOT,
      SITE_URL: baseURL,
      SMTP_URL: readFileSync(join(dataDir, "smtp-url"), "utf8"),
      NEWSLETTER_RATE: "unlimited",
    },
  });
  try {
    const { stdout, stderr } = await run;
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

async function statusOf(baseURL: string, email: string) {
  const listed = await newsletter(baseURL, "subscribers");
  expect(listed.code, listed.output).toBe(0);
  return new RegExp(`^${email.replace(/[.+]/g, "\\$&")} {2}(\\w+)`, "m").exec(listed.output)?.[1];
}

async function signUp(page: Page, email: string, { javaScript }: { javaScript: boolean }) {
  await page.goto("/updates");
  if (javaScript) await waitForReady(page);
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Thank you for your interest :)")).toBeVisible();
}

async function liveAsSubscriber(page: Page, baseURL: string, javaScript: boolean) {
  if (!firstIssue || !laterIssue) throw new Error("content/updates needs two published issues");
  const email = `life-${javaScript ? "js" : "nojs"}-${Date.now()}@example.com`;
  await signUp(page, email, { javaScript });
  const link = await confirmationLink(email);
  expect(link.origin).toBe(baseURL);

  // A mail scanner opens the link: it sees the button, and nothing is confirmed.
  const scanned = await fetch(link);
  expect(scanned.status).toBe(200);
  expect(await scanned.text()).toContain("Confirm subscription");
  expect(await statusOf(baseURL, email)).toBe("pending");

  await page.goto(link.href);
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "You're subscribed" })).toBeVisible();
  expect(await statusOf(baseURL, email)).toBe("confirmed");
  const welcome = await waitForMail(email, 2);
  expect(welcome.subject).toBe(catalogue.site.sections.updates?.welcome?.subject);

  const sent = await newsletter(baseURL, "send", firstIssue.slug, "--yes", "--again");
  expect(sent.code, sent.output).toBe(0);
  expect(sent.output).toMatch(/^Done: \d+ sent/m);
  const issue = await waitForMail(email, 3);
  expect(issue.subject).toBe(firstIssue.title);
  const header = (name: string) =>
    issue.headerLines.find((line) => line.key === name)?.line.replace(/\r?\n[ \t]+/g, "") ?? "";
  const unsubscribe = /^List-Unsubscribe:\s*<(.+)>$/i.exec(header("list-unsubscribe"))?.[1] ?? "";
  expect(new URL(unsubscribe).origin).toBe(baseURL);
  expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");

  // RFC 8058: the mail provider posts from its own servers, with no cookie and no Origin.
  const oneClick = await fetch(unsubscribe, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(oneClick.status).toBe(200);
  expect(await statusOf(baseURL, email)).toBe("unsubscribed");

  // Sent to whoever else is confirmed now, or refused when nobody is: either way, not to them.
  const later = await newsletter(baseURL, "send", laterIssue.slug, "--yes", "--again");
  expect(later.output).toMatch(/^Done: \d+ sent|There is no confirmed subscriber/m);
  expect(await mailsTo(email)).toHaveLength(3);
}

test.describe("with JavaScript", () => {
  test("a subscriber's life: sign-up, scanner-safe confirm link, Confirm button, an issue received, one-click unsubscribe, no more mail", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await liveAsSubscriber(page, baseURL ?? "", true);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("a subscriber signs up by form post, confirms with the Confirm button, receives an issue and unsubscribes in one click", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await liveAsSubscriber(page, baseURL ?? "", false);
  });
});
