/**
 * `npm run newsletter` as the owner runs it: on a copy of the fixture content, a
 * real database in a temporary DATA_DIR and the real SMTP server of the tests. Draft, preview,
 * test, import with bad rows, send (refused for a draft, a second time, and without a
 * confirmation on a pipe), status, subscribers, remove, export; and Ctrl-C in the middle of a send.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { importSubscribers } from "../../services/newsletter/subscribers.ts";
import {
  makeTempDir,
  OWNER,
  type SmtpRecorder,
  sleep,
  startSmtp,
  startTestBackend,
  TEST_SECRET,
  testConfig,
  waitFor,
} from "./helpers.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
let site: ReturnType<typeof makeTempDir>;
let data: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
/** The deployed site at SITE_URL, as far as the command asks it: the published issues' pages are live. */
let deployed: Server;
let siteUrl: string;

beforeAll(async () => {
  deployed = createServer((request, response) => {
    const live = request.url === "/updates/first-issue" || request.url === "/updates/second-issue";
    response.writeHead(live ? 200 : 404).end();
  });
  await new Promise<void>((listening) => deployed.listen(0, "127.0.0.1", listening));
  siteUrl = `http://127.0.0.1:${(deployed.address() as AddressInfo).port}`;
  site = makeTempDir("site-newsletter-root-");
  data = makeTempDir("site-newsletter-data-");
  for (const folder of ["content", "public"]) {
    cpSync(join(root, "tests/fixtures", folder), join(site.path, folder), { recursive: true });
  }
  smtp = await startSmtp({ rejectRecipients: new Map([["gone@example.org", 550]]) });
});

afterAll(async () => {
  await smtp.stop();
  await new Promise((closed) => deployed.close(closed));
  site.remove();
  data.remove();
});

type Run = { status: number | null; stdout: string; stderr: string };

/** Starts the command on the copied content, a DATA_DIR (the file's own by default) and the test's SMTP server. */
function startNewsletter(args: string[], { dataDir = data.path, env = {} as Record<string, string> } = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/newsletter.ts", ...args, "--root", site.path], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      SITE_URL: siteUrl,
      MAIL_FROM: "news@example.net",
      OWNER_EMAIL: OWNER,
      SECRET_KEY: TEST_SECRET,
      NEWSLETTER_RATE: "unlimited",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run: Run = { status: null, stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (run.stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (run.stderr += chunk));
  const ended = new Promise<Run>((done) =>
    child.once("close", (status) => {
      run.status = status;
      done(run);
    }),
  );
  return { child, run, ended };
}

const newsletter = (...args: string[]) => startNewsletter(args).ended;

test("`newsletter --help` names every command; an unknown one is refused with a pointer to it", async () => {
  const help = await newsletter("--help");
  expect(help.status).toBe(0);
  for (const command of ["draft", "preview <slug>", "test <slug>", "send <slug>", "status", "subscribers", "export"])
    expect(help.stdout).toContain(command);
  expect(help.stdout).toMatch(/import <file\.csv>[\s\S]*remove <email>/);
  const unknown = await newsletter("mail-everyone");
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain('Unknown command "mail-everyone".');
  expect(unknown.stderr).toContain("npm run newsletter -- --help");
});

test("the owner's path: draft, preview, test, import, send, status, subscribers, remove, export", async () => {
  const draft = await newsletter("draft", "--title", "Winter letter");
  expect(draft.status, draft.stderr).toBe(0);
  const draftFile = join(site.path, "content/updates/winter-letter.md");
  expect(readFileSync(draftFile, "utf8")).toMatch(/^---\ntitle: "Winter letter"\ndate: "[\d/]+"\ndraft: true\n---\n/);
  const refusedDraft = await newsletter("send", "winter-letter", "--yes");
  expect(refusedDraft.status).toBe(1);
  expect(refusedDraft.stderr).toContain('"winter-letter" is a draft: remove "draft: true" from its file to send it.');

  const preview = await newsletter("preview", "first-issue");
  expect(preview.status, preview.stderr).toBe(0);
  const [htmlPath, textPath] = preview.stdout.trim().split("\n") as [string, string];
  expect(readFileSync(htmlPath, "utf8")).toContain(`href="${siteUrl}/notes/deep-work"`);
  expect(readFileSync(textPath, "utf8")).toContain(`a note (${siteUrl}/notes/deep-work)`);

  const trial = await newsletter("test", "first-issue");
  expect(trial.status, trial.stderr).toBe(0);
  expect(smtp.received.map((mail) => [mail.envelope.to, mail.parsed.subject])).toEqual([
    [[OWNER], "[Test] First issue"],
  ]);

  const csv = join(data.path, "list.csv");
  writeFileSync(csv, "email\nann@example.org\nnot an address\ngone@example.org\nbo@example.org\n");
  const bad = await newsletter("import", csv);
  expect(bad.status).toBe(1);
  expect(bad.stderr).toBe('Nothing imported:\n  line 3: "not an address" is not a valid email address\n');
  writeFileSync(csv, "email\nann@example.org\ngone@example.org\nbo@example.org\n");
  const imported = await newsletter("import", csv);
  expect(imported.stdout).toContain("Imported: 3 added");

  const asked = await newsletter("send", "first-issue");
  expect(asked.status).toBe(1);
  expect(asked.stderr).toContain("Not asking on a non-interactive input: add --yes to send.");

  const sent = await newsletter("send", "first-issue", "--yes");
  expect(sent.status, sent.stderr).toBe(0);
  expect(sent.stdout).toContain('Send #1: "First issue" to 3 recipients.');
  expect(sent.stdout).toContain("Done: 2 sent, 1 bounced (now left out).");
  expect(sent.stderr).toMatch(/\[#{30}\] 2\/3 sent/);
  expect(smtp.received.slice(1).flatMap((mail) => mail.envelope.to)).toEqual(["ann@example.org", "bo@example.org"]);

  const twice = await newsletter("send", "first-issue", "--yes");
  expect(twice.status).toBe(1);
  expect(twice.stderr).toMatch(/"first-issue" was already sent \(send #1, .+\)\. Add --again to send it once more\./);

  const status = await newsletter("status");
  expect(status.stdout).toMatch(
    /^#1 {2}\S+ {2}first-issue {2}"First issue" {2}2\/3 sent, 1 bounced, 0 skipped, done$/m,
  );

  const bounced = await newsletter("subscribers", "--status", "bounced");
  expect(bounced.stdout).toMatch(
    /^gone@example\.org {2}bounced {2}\S+\n1 in all: 0 pending, 0 confirmed, 0 unsubscribed, 1 bounced\.\n$/,
  );

  const removed = await newsletter("remove", "GONE@example.org");
  expect(removed.stdout).toContain("Erased GONE@example.org and every record of their subscription.");
  const exported = await newsletter("export");
  expect(exported.stdout.split("\r\n").map((line) => line.split(",").slice(0, 2).join(","))).toEqual([
    "email,status",
    "ann@example.org,confirmed",
    "bo@example.org,confirmed",
    "",
  ]);
  expect(existsSync(draftFile)).toBe(true);
}, 120_000);

test("draft --digest lists the essays, notes and quotes published since the newest published issue, and with nothing new says so and writes nothing", async () => {
  const updates = join(site.path, "content/updates");
  const issuesBefore = readdirSync(updates).sort();
  const nothing = await newsletter("draft", "--digest");
  expect(nothing.status).toBe(1);
  expect(nothing.stderr).toMatch(/^Nothing was published since the last issue \(.+\): no digest written\.\n$/);
  expect(readdirSync(updates).sort()).toEqual(issuesBefore);

  const note = join(site.path, "content/notes/the-salt-road.md");
  const essay = join(site.path, "content/write/late-spring.md");
  writeFileSync(
    note,
    '---\nname: "The Salt Road"\nauthor: "Ada Fenn"\ndate: "4/1/25"\ntags: ["Fiction"]\nrating: 8\ntime: 30\n---\n\nAn invented book.\n\n> Every road to the sea is paved with someone else\'s patience.\n\n— p. 3\n',
  );
  writeFileSync(essay, '---\nname: "Late Spring"\ndate: "4/2/25"\ntime: 2\n---\n\nAn invented essay.\n');
  try {
    const digest = await newsletter("draft", "--digest", "--title", "Spring digest");
    expect(digest.status, digest.stderr).toBe(0);
    const written = readFileSync(join(updates, "spring-digest.md"), "utf8");
    expect(written).toMatch(/^---\ntitle: "Spring digest"\ndate: "[\d/]+"\ndraft: true\n---\n/);
    expect(written.slice(written.indexOf("## "))).toBe(
      [
        "## New essays",
        "",
        "- [Late Spring](/write/late-spring)",
        "",
        "## New book notes",
        "",
        "- [The Salt Road](/notes/the-salt-road) by Ada Fenn",
        "",
        "## New quotes",
        "",
        "- [“Every road to the sea is paved with someone else's patience.” — p. 3](/quotes/the-salt-road-1)",
        "",
      ].join("\n"),
    );
  } finally {
    for (const file of [note, essay, join(updates, "spring-digest.md")]) rmSync(file, { force: true });
  }
});

test("Ctrl-C during a send stops watching and leaves the rest to the server's worker: everyone gets the issue once", async () => {
  const own = makeTempDir("site-newsletter-interrupted-");
  const backend = await startTestBackend(testConfig(own.path, { smtpUrl: smtp.url }), {
    startOutbox: false,
    newsletter: { pollIntervalMs: 100 },
  });
  try {
    const emails = ["one@example.net", "two@example.net", "three@example.net", "four@example.net"];
    expect(await importSubscribers(backend.database.db, `email\n${emails.join("\n")}\n`)).toMatchObject({ ok: true });
    const before = smtp.received.length;
    const mailed = () => smtp.received.slice(before).flatMap((mail) => mail.envelope.to);
    // 30 a minute: one mail every 2 s, so the owner presses Ctrl-C with most of the send to go.
    const sending = startNewsletter(["send", "second-issue", "--yes"], {
      dataDir: own.path,
      env: { NEWSLETTER_RATE: "30" },
    });
    await waitFor(() => mailed().length >= 1, { timeoutMs: 20_000, what: `the first mail (${sending.run.stderr})` });
    sending.child.kill("SIGINT");
    const stopped = await sending.ended;
    expect(stopped.status, stopped.stderr).toBe(130);
    expect(stopped.stdout).toMatch(/Stopped watching with [1-3] mails? left: the server \(npm start\) delivers them/);
    expect(mailed().length).toBeLessThan(emails.length);

    backend.newsletter.start();
    await waitFor(() => mailed().length === emails.length, { timeoutMs: 20_000, what: "the rest of the send" });
    await sleep(300);
    expect(mailed().sort()).toEqual([...emails].sort());
  } finally {
    await backend.close();
    own.remove();
  }
});

test("a send the SMTP server refuses the sender of ends paused; status says why; resume delivers each recipient once", async () => {
  const own = makeTempDir("site-newsletter-paused-");
  const run = (...args: string[]) => startNewsletter(args, { dataDir: own.path }).ended;
  try {
    const emails = ["uno@example.com", "dos@example.com", "tres@example.com"];
    const csv = join(own.path, "list.csv");
    writeFileSync(csv, `email\n${emails.join("\n")}\n`);
    expect((await run("import", csv)).status).toBe(0);
    const before = smtp.received.length;
    const mailed = () => smtp.received.slice(before).flatMap((mail) => mail.envelope.to);

    smtp.refuseSender(true);
    const refused = await run("send", "second-issue", "--yes");
    expect(refused.status, refused.stderr).toBe(1);
    expect(refused.stdout).toMatch(/Send #1 is paused with 3 to go: the SMTP server refused our sender/);
    expect(refused.stdout).toContain("550 5.7.1 sender not allowed");
    const subscribers = await run("subscribers");
    expect(subscribers.stdout).toContain("3 in all: 0 pending, 3 confirmed, 0 unsubscribed, 0 bounced.");
    const status = await run("status");
    expect(status.stdout).toMatch(
      /^#1 .* 0\/3 sent, 0 bounced, 0 skipped, 3 pending, PAUSED since \S+: .*5\.7\.1 sender not allowed.*npm run newsletter -- resume 1$/m,
    );
    expect(mailed()).toEqual([]);

    smtp.refuseSender(false);
    const resumed = await run("resume", "1", "--yes");
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("Send #1 continues.");
    expect(resumed.stdout).toContain("Done: 3 sent.");
    await sleep(300);
    expect(mailed().sort()).toEqual([...emails].sort());
    expect((await run("resume", "1", "--yes")).stderr).toContain("Send #1 is not paused.");
  } finally {
    smtp.refuseSender(false);
    own.remove();
  }
});
