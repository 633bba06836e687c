/**
 * A reply written under an essay in a browser without JavaScript, on the production server with its
 * real SMTP server: the form, the sent notice (safe to reload and go Back to), the link from the
 * mail, its button, and the reply waiting for the owner as `npm run replies -- list --json` shows it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { catalogue } from "./fixture-site.ts";
import { expectNoAxeViolations } from "./helpers.ts";
import { waitForMail } from "./mailbox.ts";

const WORDS = catalogue.site.replies;

type ListedReply = { id: number; kind: string; status: string; author: { name: string }; text: string; target: string };

/** `npm run replies -- list --json` as the owner runs it on the server's machine. */
async function listedReplies(): Promise<ListedReply[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "scripts/replies.ts", "list", "--json"],
    {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: process.env.TEST_DATA_DIR ?? "" },
    },
  );
  return JSON.parse(stdout) as ListedReply[];
}

const repliesOf = async (text: string) => (await listedReplies()).filter((reply) => reply.text === text);

test("the reply form under an essay has no accessibility violations", async ({ page }) => {
  await page.goto("/write/fear");
  await expect(page.getByRole("button", { name: "Send reply" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a reply under an essay is sent, confirmed from the mail's link and waits for the owner", async ({ page }) => {
    const email = `reply.${Date.now()}@example.com`;
    const text = `A reply from a browser without scripts, ${email}.`;
    await page.goto("/write/fear");
    await expect(page.locator('script[type="module"]')).toHaveCount(0);
    await expect(page.getByText(WORDS.invite)).toBeVisible();
    await page.getByLabel("Name").fill("Browser Reader");
    await page.getByLabel("Site (optional)").fill("https://reader.example/");
    await page.getByLabel("Email (never shown)").fill(email);
    await page.getByRole("textbox", { name: "Reply" }).fill(text);
    await page.getByRole("button", { name: "Send reply" }).click();

    await expect(page).toHaveURL(/\/write\/fear\?sent=reply\./);
    await expect(page.getByRole("status")).toHaveText(WORDS.sent);
    await expect(page.getByRole("textbox", { name: "Reply" })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("status")).toHaveText(WORDS.sent);
    await page.goBack();
    await expect(page.getByText(WORDS.invite)).toBeVisible();
    await page.goForward();
    await expect(page.getByRole("status")).toHaveText(WORDS.sent);
    const [stored] = await repliesOf(text);
    expect(await repliesOf(text)).toHaveLength(1);
    expect(stored).toMatchObject({ kind: "form", status: "unconfirmed", target: "/write/fear" });

    const mail = await waitForMail(email);
    const link = /https?:\/\/\S+\/replies\/confirm\?token=\S+/.exec(mail.text ?? "")?.[0];
    expect(link, mail.text).toBeDefined();
    await page.goto(link ?? "");
    await expect(page.getByText(WORDS.confirm)).toBeVisible();
    expect((await repliesOf(text))[0]?.status).toBe("unconfirmed");
    await page.getByRole("button", { name: "Confirm reply" }).click();
    await expect(page.getByRole("status")).toHaveText(WORDS.confirmed);
    await page.reload();
    await expect(page.getByRole("status")).toHaveText(WORDS.confirmed);
    expect(await repliesOf(text)).toEqual([
      expect.objectContaining({
        kind: "form",
        status: "pending",
        target: "/write/fear",
        author: expect.objectContaining({ name: "Browser Reader" }),
      }),
    ]);
  });
});
