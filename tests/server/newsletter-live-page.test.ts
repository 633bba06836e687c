/**
 * `npm run newsletter -- send|test` mail an issue only once its page is live at SITE_URL: on a copy
 * of the fixture content, a real database, the tests' SMTP server and a stand-in for the deployed
 * site on 127.0.0.1 where one published issue is deployed and the other is not yet.
 */
import { spawn } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { makeTempDir, OWNER, type SmtpRecorder, startSmtp, TEST_SECRET } from "./helpers.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
let site: ReturnType<typeof makeTempDir>;
let data: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let deployed: Server;
let siteUrl: string;

beforeAll(async () => {
  site = makeTempDir("site-live-page-root-");
  data = makeTempDir("site-live-page-data-");
  for (const folder of ["content", "public"]) {
    cpSync(join(root, "tests/fixtures", folder), join(site.path, folder), { recursive: true });
  }
  smtp = await startSmtp();
  deployed = createServer((request, response) => {
    response.writeHead(request.url === "/updates/first-issue" ? 200 : 404, { "Content-Type": "text/html" }).end();
  });
  await new Promise<void>((listening) => deployed.listen(0, "127.0.0.1", listening));
  siteUrl = `http://127.0.0.1:${(deployed.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await smtp.stop();
  await new Promise((closed) => deployed.close(closed));
  site.remove();
  data.remove();
});

function newsletter(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/newsletter.ts", ...args, "--root", site.path], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      DATA_DIR: data.path,
      SMTP_URL: smtp.url,
      SITE_URL: siteUrl,
      MAIL_FROM: "news@example.net",
      OWNER_EMAIL: OWNER,
      SECRET_KEY: TEST_SECRET,
      NEWSLETTER_RATE: "unlimited",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run = { status: null as number | null, stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (run.stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (run.stderr += chunk));
  return new Promise((done) =>
    child.once("close", (status) => {
      run.status = status;
      done(run);
    }),
  );
}

// Seven runs of the command, each a few seconds on a busy machine.
test("an issue whose page is not deployed yet is neither sent nor tested; --force mails it with a warning; one recipient is one", async () => {
  const csv = join(data.path, "one.csv");
  writeFileSync(csv, "email\nreader@example.org\n");
  expect((await newsletter("import", csv)).status).toBe(0);
  const notLive = `The issue's page is not live: ${siteUrl}/updates/second-issue answers 404 Not Found, and the mail links to it.`;

  const refused = await newsletter("send", "second-issue", "--yes");
  expect(refused.status).toBe(1);
  expect(refused.stderr).toBe(
    `${notLive}\nPublish the issue, build and deploy the site, then run this again (--force mails it anyway).\n`,
  );
  const refusedTest = await newsletter("test", "second-issue");
  expect(refusedTest.status).toBe(1);
  expect(refusedTest.stderr).toContain(notLive);
  expect(smtp.received).toEqual([]);

  const forced = await newsletter("send", "second-issue", "--yes", "--force");
  expect(forced.status, forced.stderr).toBe(0);
  expect(forced.stderr).toContain(`Warning: ${notLive} Mailing it anyway (--force).`);
  expect(forced.stdout).toContain('Send #1: "Second issue" to 1 recipient.');
  expect(smtp.received.flatMap((mail) => mail.envelope.to)).toEqual(["reader@example.org"]);

  const live = await newsletter("send", "first-issue", "--yes");
  expect(live.status, live.stderr).toBe(0);
  expect(live.stderr).not.toContain("Warning");
  expect(live.stdout).toContain('Send #2: "First issue" to 1 recipient.');
}, 240_000);
