import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { VISITOR_STORAGE_KEY } from "../../app/shell/storage-keys.ts";
import { entryAt } from "../support/lists.ts";
import { catalogue } from "./fixture-site.ts";
import { expectNoAxeViolations, waitForReady } from "./helpers.ts";
import { confirmationLink } from "./mailbox.ts";

const owner = catalogue.site.email;
let serial = 0;
const uniqueEmail = () => `visitor-${process.pid}-${Date.now()}-${++serial}@example.com`;

const signupBox = (page: Page) => page.locator(".signup-box");
const signupInput = (page: Page) => page.getByPlaceholder("Enter your email");

async function open(page: Page, path: string) {
  await page.goto(path);
  await waitForReady(page);
}

/**
 * Where a form on the page at `path` posts once React runs: the page's route action, asked for
 * React Router's data (`/contact/_.data` from the prerendered `/contact/`, `/_.data` from home).
 */
const formPost = (path: string) => (url: URL) =>
  ["/_.data", ".data"].some((suffix) => url.pathname === `${path.replace(/\/$/, "")}${suffix}`);

/** Holds the form's answer until the test lets it go, so in-between states can be seen. */
async function holdFormPost(page: Page, path: string) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(formPost(path), async (route) => {
    if (route.request().method() === "POST") await released;
    await route.continue();
  });
  return release;
}

function receivedMails(): string[] {
  const dir = join(process.env.TEST_DATA_DIR ?? "", "received");
  return readdirSync(dir).map((name) => readFileSync(join(dir, name), "utf8"));
}

for (const path of ["/", "/updates"]) {
  test(`${path} has the box 'Want updates?' with an email input 'Enter your email'`, async ({ page }) => {
    await open(page, path);
    await expect(signupBox(page).getByRole("heading", { name: "Want updates?" })).toBeVisible();
    await expect(signupInput(page)).toBeVisible();
    await expectNoAxeViolations(page);
  });
}

test("the send button appears only when the email is non-empty", async ({ page }) => {
  await open(page, "/");
  await expect(signupBox(page).getByRole("button", { name: "Send" })).toHaveCount(0);
  await signupInput(page).fill("a");
  await expect(signupBox(page).getByRole("button", { name: "Send" })).toBeVisible();
  await signupInput(page).fill("");
  await expect(signupBox(page).getByRole("button", { name: "Send" })).toHaveCount(0);
});

test("updates is a page with the sign-up block", async ({ page }) => {
  await open(page, "/updates");
  await expect(page.getByRole("heading", { level: 1, name: "Updates" })).toBeVisible();
  await expect(signupBox(page)).toBeVisible();
});

test("'Loading...' shows while the request runs", async ({ page }) => {
  await open(page, "/");
  const release = await holdFormPost(page, "/");
  await signupInput(page).fill(uniqueEmail());
  await signupBox(page).getByRole("button", { name: "Send" }).click();
  await expect(signupBox(page).getByText("Loading...")).toBeVisible();
  await expect(signupBox(page).getByRole("button", { name: "Send" })).toHaveCount(0);
  release();
  await expect(signupBox(page).getByText("Thank you for your interest :)")).toBeVisible();
});

test("pressing Enter in the box submits the form", async ({ page }) => {
  await open(page, "/");
  await signupInput(page).fill(uniqueEmail());
  await signupInput(page).press("Enter");
  await expect(signupBox(page).getByText("Thank you for your interest :)")).toBeVisible();
});

test("the send button subscribes the email and the box says 'Thank you for your interest :)'", async ({ page }) => {
  await open(page, "/updates");
  await signupInput(page).fill(uniqueEmail());
  await signupBox(page).getByRole("button", { name: "Send" }).click();
  await expect(signupBox(page).getByText("Thank you for your interest :)")).toBeVisible();
});

test("empty and malformed emails get their messages; typing clears them", async ({ page }) => {
  await open(page, "/");
  await signupInput(page).press("Enter");
  await expect(signupBox(page).getByText("Please enter your email.")).toBeVisible();
  await signupInput(page).fill("not-an-email");
  await expect(signupBox(page).getByRole("alert")).toHaveCount(0);
  for (const bad of ["not-an-email", "a@b", "a@b.c", "a b@c.de", "@example.com"]) {
    await signupInput(page).fill(bad);
    await signupInput(page).press("Enter");
    await expect(signupBox(page).getByText("Please enter a valid email.")).toBeVisible();
  }
  await signupInput(page).pressSequentially("x");
  await expect(signupBox(page).getByRole("alert")).toHaveCount(0);
  await signupInput(page).fill(`${uniqueEmail().split("@")[0]}@[192.168.0.1]`);
  await signupInput(page).press("Enter");
  await expect(signupBox(page).getByText("Thank you for your interest :)")).toBeVisible();
});

test("an email already subscribed gets 'Sorry, this email was already used.'", async ({ browser }) => {
  const email = uniqueEmail();
  const first = await browser.newContext();
  const page = await first.newPage();
  await open(page, "/");
  await signupInput(page).fill(email);
  await signupInput(page).press("Enter");
  const thanks = signupBox(page).getByText("Thank you for your interest :)");
  const askToConfirm = signupBox(page).getByText(/confirm/i);
  await expect(thanks).toBeVisible();
  await expect(askToConfirm).toBeVisible();
  expect((await askToConfirm.boundingBox())?.y).toBeGreaterThan((await thanks.boundingBox())?.y ?? Infinity);

  // Only a confirmed email counts as used: the person confirms from the mail first.
  await page.goto((await confirmationLink(email)).href);
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "You're subscribed" })).toBeVisible();
  await first.close();

  const second = await browser.newContext();
  const again = await second.newPage();
  await open(again, "/");
  await signupInput(again).fill(email.toUpperCase());
  await signupInput(again).press("Enter");
  await expect(signupBox(again).getByText("Sorry, this email was already used.")).toBeVisible();
  await second.close();
});

test("other failures say what happened instead of claiming the email was used", async ({ page }) => {
  await open(page, "/");
  const homePost = formPost("/");
  await page.route(homePost, (route) => route.fulfill({ status: 500, json: { error: "x" } }));
  await signupInput(page).fill(uniqueEmail());
  await signupInput(page).press("Enter");
  await expect(signupBox(page).getByText("Something went wrong. Please try again.")).toBeVisible();
  await page.unroute(homePost);
  await page.route(homePost, (route) => route.abort());
  await signupInput(page).press("Enter");
  await expect(signupBox(page).getByText(/Could not reach the server/)).toBeVisible();
});

test("after signing up on /updates exactly one thank-you shows", async ({ page }) => {
  await open(page, "/updates");
  await signupInput(page).fill(uniqueEmail());
  await signupInput(page).press("Enter");
  await expect(signupBox(page).getByText("Thank you for your interest :)")).toBeVisible();
  await expect(page.locator("main").getByRole("status")).toHaveText(["Thank you for your interest :)"]);
  // The page's own line for a known subscriber waits for the next visit.
  await expect(page.locator(".signup-known")).toBeHidden();
});

test("a visitor who signed up never sees the box again, not even for a frame; /updates says so", async ({ page }) => {
  await open(page, "/");
  const email = uniqueEmail();
  await signupInput(page).fill(email);
  await signupInput(page).press("Enter");
  await expect(signupBox(page).getByText("Thank you for your interest :)")).toBeVisible();
  await expect
    .poll(() => page.evaluate((key) => localStorage.getItem(key), VISITOR_STORAGE_KEY))
    .toBe(JSON.stringify({ email, signedUp: true }));
  // Before any app script runs, the box must already be hidden.
  await page.route("**/assets/*.js", (route) => route.abort());
  await page.goto("/");
  await expect(signupBox(page)).toBeAttached();
  await expect(signupBox(page)).toBeHidden();
  await page.unroute("**/assets/*.js");
  await open(page, "/updates");
  await expect(signupBox(page)).toBeHidden();
  await expect(page.getByText("You signed up from this browser")).toBeVisible();
  await open(page, "/");
  await expect(signupBox(page)).toBeHidden();
});

test("the remembered visitor is written at most once per second", async ({ page }) => {
  await page.addInitScript(() => {
    const original = Storage.prototype.setItem;
    (window as unknown as { __writes: number[] }).__writes = [];
    Storage.prototype.setItem = function (key: string, value: string) {
      (window as unknown as { __writes: number[] }).__writes.push(performance.now());
      return original.call(this, key, value);
    };
  });
  await open(page, "/");
  await signupInput(page).pressSequentially("someone@example.com", { delay: 20 });
  await page.waitForTimeout(1500);
  const writes = await page.evaluate(() => (window as unknown as { __writes: number[] }).__writes);
  expect(writes.length).toBeGreaterThanOrEqual(1);
  for (const [index, later] of writes.slice(1).entries()) {
    expect(later - entryAt(writes, index)).toBeGreaterThanOrEqual(990);
  }
  expect(JSON.parse((await page.evaluate((key) => localStorage.getItem(key), VISITOR_STORAGE_KEY)) ?? "{}")).toEqual({
    email: "someone@example.com",
    signedUp: false,
  });
});

test("the email typed in the sign-up box is the one the contact form starts with, and back", async ({ page }) => {
  await open(page, "/");
  await signupInput(page).fill("shared@example.com");
  await page
    .getByRole("link", { name: /^Contact/ })
    .first()
    .click();
  // Home's sign-up box is labelled "Email" too: wait for the contact page before using its field.
  await expect(page.getByRole("heading", { level: 1, name: "Contact" })).toBeVisible();
  const contactEmail = page.locator(".contact-form").getByLabel("Email");
  await expect(contactEmail).toHaveValue("shared@example.com");
  await contactEmail.fill("changed@example.com");
  // Written at most once a second: wait for the write, not for a fixed time.
  await expect
    .poll(() => page.evaluate((key) => localStorage.getItem(key), VISITOR_STORAGE_KEY), { timeout: 10_000 })
    .toContain("changed@example.com");
  await open(page, "/updates");
  await expect(signupInput(page)).toHaveValue("changed@example.com");
});

test("the menu, the filters and the overlay are never restored on a new visit", async ({ page }) => {
  await open(page, "/notes");
  await page.getByRole("button", { name: "Filters" }).click();
  await page.getByRole("dialog", { name: "Order by:" }).getByRole("button", { name: "Fiction" }).click();
  await page.getByRole("dialog", { name: "Order by:" }).getByRole("button", { name: "Rating" }).click();
  await page.getByPlaceholder("Search...").fill("the");
  await page.getByRole("button", { name: "Menu" }).click();
  await open(page, "/notes");
  await expect(page.getByRole("dialog", { name: "Menu" })).toBeHidden();
  await expect(page.getByRole("dialog", { name: "Order by:" })).toBeHidden();
  await expect(page.getByPlaceholder("Search...")).toHaveValue("");
  await expect(page.getByText(/^Results \(/)).toHaveCount(0);
  const stored = await page.evaluate(() => JSON.stringify(localStorage));
  expect(stored).not.toContain("Fiction");
  expect(stored).not.toContain("rating");
});

test("contact has the fields email, subject and message, and a 'send' button", async ({ page }) => {
  await open(page, "/contact");
  await expect(page.getByLabel("Email")).toBeVisible();
  await expect(page.getByLabel("Subject")).toBeVisible();
  await expect(page.getByLabel("Message")).toBeVisible();
  await expect(page.getByRole("button", { name: "send", exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("errors show in a block above the send button, email first, then subject, then message", async ({ page }) => {
  await open(page, "/contact");
  const send = page.getByRole("button", { name: "send", exact: true });
  const error = page.locator(".contact-form .form-error");
  const steps: Array<[() => Promise<void>, string]> = [
    [async () => {}, "Please enter your email."],
    [() => page.getByLabel("Email").fill("nope"), "Please enter a valid email."],
    [() => page.getByLabel("Email").fill("me@example.com"), "Please enter a subject."],
    [() => page.getByLabel("Subject").fill("Hello"), "Please enter a message."],
  ];
  for (const [change, message] of steps) {
    await change();
    await send.click();
    await expect(error).toHaveText(message);
    const [errorBox, buttonBox] = [await error.boundingBox(), await send.boundingBox()];
    expect(errorBox && buttonBox && errorBox.y < buttonBox.y).toBe(true);
  }
});
test("a problem shows once, in the block above the button, and marks its own field invalid, described by it", async ({
  page,
}) => {
  await open(page, "/contact");
  const send = page.getByRole("button", { name: "send", exact: true });
  const steps: Array<[() => Promise<void>, string, string]> = [
    [async () => {}, "Email", "Please enter your email."],
    [() => page.getByLabel("Email").fill("nope"), "Email", "Please enter a valid email."],
    [() => page.getByLabel("Email").fill("me@example.com"), "Subject", "Please enter a subject."],
    [() => page.getByLabel("Subject").fill("Hello"), "Message", "Please enter a message."],
  ];
  for (const [change, label, message] of steps) {
    await change();
    await send.click();
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveAccessibleDescription(message);
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(".contact-form [aria-invalid]")).toHaveCount(1);
    await expect(page.locator(".contact-form").getByText(message, { exact: true })).toHaveCount(1);
  }
});

test("changing the email, the subject or the message clears the error", async ({ page }) => {
  await open(page, "/contact");
  const send = page.getByRole("button", { name: "send", exact: true });
  const error = page.locator(".contact-form .form-error");
  for (const label of ["Email", "Subject", "Message"]) {
    await send.click();
    await expect(error).toBeVisible();
    await page.getByLabel(label).fill("x");
    await expect(error).toHaveCount(0);
    for (const field of ["Email", "Subject", "Message"]) await page.getByLabel(field).fill("");
  }
});

test("contact is the contact form", async ({ page }) => {
  await open(page, "/contact");
  await expect(page.getByRole("heading", { level: 1, name: "Contact" })).toBeVisible();
  await expect(page.locator("form.contact-form")).toBeVisible();
});

test("while sending, 'Sending...' replaces the send button", async ({ page }) => {
  await open(page, "/contact");
  await page.getByLabel("Email").fill(uniqueEmail());
  await page.getByLabel("Subject").fill("Hello");
  await page.getByLabel("Message").fill("Hello there");
  const release = await holdFormPost(page, "/contact");
  await page.getByRole("button", { name: "send", exact: true }).click();
  await expect(page.getByText("Sending...")).toBeVisible();
  await expect(page.getByRole("button", { name: "send", exact: true })).toHaveCount(0);
  release();
  await expect(page.getByText("I'll email you back shortly :)")).toBeVisible();
});

test("on success: a real mail to the owner, 'I'll email you back shortly :)', and 'Send another email' resets", async ({
  page,
}) => {
  await open(page, "/contact");
  const email = uniqueEmail();
  const subject = `Hello from ${email}`;
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Message").fill("I enjoyed your notes on Deep Work.\nThanks!");
  await page.getByRole("button", { name: "send", exact: true }).click();
  await expect(page.getByText("I'll email you back shortly :)")).toBeVisible();
  await expect.poll(() => receivedMails().find((mail) => mail.includes(subject)), { timeout: 15_000 }).toBeTruthy();
  const mail = receivedMails().find((text) => text.includes(subject)) ?? "";
  expect(mail).toMatch(new RegExp(`^To: .*${owner.replace(".", "\\.")}`, "m"));
  expect(mail).toMatch(new RegExp(`^Reply-To: .*${email.replace(/\./g, "\\.")}`, "m"));
  expect(mail).toContain("I enjoyed your notes on Deep Work.");
  await page.getByRole("button", { name: "Send another email" }).click();
  await expect(page.getByLabel("Subject")).toHaveValue("");
  await expect(page.getByLabel("Message")).toHaveValue("");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByText("I'll email you back shortly :)")).toHaveCount(0);
});

test("when the server cannot take the message: 'Sorry, email failed to send.'", async ({ page }) => {
  await open(page, "/contact");
  const contactPost = formPost("/contact");
  await page.route(contactPost, (route) => route.fulfill({ status: 500, json: { error: "x" } }));
  await page.getByLabel("Email").fill("me@example.com");
  await page.getByLabel("Subject").fill("Hi");
  await page.getByLabel("Message").fill("Hello");
  await page.getByRole("button", { name: "send", exact: true }).click();
  await expect(page.locator(".form-error")).toHaveText("Sorry, email failed to send.");
  await page.getByLabel("Message").fill("Hello again");
  await expect(page.locator(".form-error")).toHaveCount(0);
  await page.unroute(contactPost);
  await page.route(contactPost, (route) => route.abort());
  await page.getByRole("button", { name: "send", exact: true }).click();
  await expect(page.locator(".form-error")).toHaveText("Sorry, email failed to send.");
});

test.describe("focus after a submit", () => {
  /** What has focus: the id of a field, or the class and role of a message. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = document.activeElement;
      return element?.id || `${element?.className} ${element?.getAttribute("role")}`;
    });

  test("contact: on a field's problem the field, on a failure to send the message, on success the outcome", async ({
    page,
  }) => {
    await open(page, "/contact");
    await page.getByLabel("Email").fill(uniqueEmail());
    await page.getByLabel("Message").fill("Hello");
    await page.getByRole("button", { name: "send", exact: true }).click();
    await expect(page.locator(".form-error")).toHaveText("Please enter a subject.");
    await expect.poll(() => focused(page)).toBe("contact-subject");

    await page.getByLabel("Subject").fill("Focus");
    const contactPost = formPost("/contact");
    await page.route(contactPost, (route) => route.fulfill({ status: 500, json: { error: "x" } }));
    await page.getByRole("button", { name: "send", exact: true }).click();
    await expect(page.locator(".form-error")).toHaveText("Sorry, email failed to send.");
    await expect.poll(() => focused(page)).toBe("contact-error");

    await page.unroute(contactPost);
    await page.getByLabel("Message").fill("Hello again");
    await page.getByRole("button", { name: "send", exact: true }).click();
    await expect(page.getByText("I'll email you back shortly :)")).toBeVisible();
    await expect.poll(() => focused(page)).toBe("form-success status");
  });

  test("sign-up: on a problem the email field, on success the thank-you", async ({ page }) => {
    await open(page, "/updates");
    await signupInput(page).fill("bad@email");
    await signupInput(page).press("Enter");
    await expect(signupBox(page).getByText("Please enter a valid email.")).toBeVisible();
    await expect.poll(() => focused(page)).toBe("signup-email");

    await signupInput(page).fill(uniqueEmail());
    await signupBox(page).getByRole("button", { name: "Send" }).click();
    await expect(signupBox(page).getByText("Thank you for your interest :)")).toBeVisible();
    await expect.poll(() => focused(page)).toBe("form-success status");
  });
});
