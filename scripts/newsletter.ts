// Runs beside the running server or while it is stopped, with the same environment.

import { Resolver } from "node:dns/promises";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { contentRoot } from "../catalogue/content-root.ts";
import { loadCatalogue } from "../catalogue/disk.ts";
import { type Catalogue, ContentError } from "../catalogue/load.ts";
import { readOwner } from "../catalogue/owner-file.ts";
import type { UpdateIssue } from "../catalogue/schema.ts";
import { absoluteUrl } from "../catalogue/site-url.ts";
import { type Config, ConfigError, DKIM_SELECTOR, readConfig } from "../services/config.ts";
import { connectDatabase, type Database, SUBSCRIBER_STATUSES, type SubscriberStatus } from "../services/db/database.ts";
import { checkSenderRecords, senderRecords, writeDkimKey, zoneLine } from "../services/mail/authentication.ts";
import { messageIdDomainOf } from "../services/mail/outbox.ts";
import { findIssue, issueToSend, mailTest, Refusal, writeDraft, writePreview } from "../services/newsletter/issue.ts";
import { checkPageLive } from "../services/newsletter/live-page.ts";
import {
  confirmedCount,
  importSubscribers,
  listSubscribers,
  removeSubscriber,
  subscribersCsv,
} from "../services/newsletter/subscribers.ts";
import {
  COMPLAINT_LINE,
  deliverSend,
  freezeSend,
  percent,
  resumeSend,
  type SendProgress,
  sendFigures,
  sendProgress,
} from "../services/newsletter/worker.ts";
import { printText, terminalText } from "./terminal-text.ts";

const HELP = `Usage: npm run newsletter -- <command> [options]

Writing an issue (files in content/updates/):
  draft [--title "Title"] [--digest]
                               write a new draft issue, listing the essays and book notes
                               published since the last sent issue; edit it, then remove
                               "draft: true" to publish it on /updates. --digest lists the
                               essays, notes and quotes published since the newest published
                               issue, and writes nothing when there is none
  preview <slug>               write the mail (HTML and plain text) to files and print their paths
  test <slug> [--force]        send the mail to OWNER_EMAIL only

Sending:
  send <slug> [--yes] [--again]
                               send a published issue to every confirmed subscriber: asks first
                               (--yes does not), then shows the progress until done. Ctrl-C stops
                               watching: the running server (npm start) delivers the rest.
                               An issue already sent is refused unless --again.
                               send and test first ask the issue's page at SITE_URL and refuse
                               while it is not live (the mail links to it): publish, build and
                               deploy first; --force sends anyway, with a warning.
  status                       every send's progress and figures (delivered, bounced, complained
                               against Gmail's 0.3% line, unsubscribed), and why one is paused
  bounces                      read the bounce mailbox (BOUNCE_IMAP_URL) once, as the server does
                               every few minutes, and list its Unreadable folder
  resume <id> [--yes]          continue a paused send (after fixing what paused it), then show
                               its progress like send

The list:
  subscribers [--status S]     the subscribers (S: ${SUBSCRIBER_STATUSES.join(", ")})
  export                       the list as CSV on stdout (email, status, created_at,
                               confirmed_at, unsubscribed_at)
  import <file.csv>            add the addresses of a CSV file (the "email" column, or the first
                               one without a header line) as confirmed subscribers, e.g. when
                               moving from another service; a file of \`export\` keeps each
                               status and date. Bad rows are listed by line number, and then
                               nothing is imported
  remove <email>               erase a person entirely (a deletion request)

Signed mail (docs/mail-deliverability.md):
  keys [--selector S] [--replace]
                               make the key that signs every mail (DKIM), in DATA_DIR/dkim.pem or
                               DKIM_KEY_FILE, named S in DNS (default: s and today's date); kept
                               unless --replace. Restart the server to sign with it
  dns [--check] [--server IP]  the SPF, DKIM and DMARC records for MAIL_FROM's domain; --check looks
                               them up (at IP[:port] with --server): what is missing or differs

Options: --root <folder> reads <folder>/content instead of ./content (or CONTENT_ROOT's). --help: this text.
Uses the database in DATA_DIR (now ${resolve(process.env.DATA_DIR || "./data")}); without SMTP_URL
mails are written to DATA_DIR/mail/ as .eml files.`;

function fail(message: string): never {
  console.error(`${message}\n\nRun \`npm run newsletter -- --help\` for the commands.`);
  process.exit(2);
}

const argv = process.argv.slice(2);
const { values: options, positionals } = (() => {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        title: { type: "string" },
        // A new name each day: a replaced key's record can go up beside the old one while its mail is in transit.
        selector: { type: "string", default: `s${new Date().toISOString().slice(0, 10).replaceAll("-", "")}` },
        server: { type: "string" },
        check: { type: "boolean", default: false },
        digest: { type: "boolean", default: false },
        replace: { type: "boolean", default: false },
        status: { type: "string" },
        root: { type: "string" },
        yes: { type: "boolean", default: false },
        again: { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
})();
const [command = "", operand] = positionals;
const root = resolve(options.root ?? contentRoot(process.cwd()));
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

let catalogue: Catalogue | undefined;
const content = () => (catalogue ??= loadCatalogue(root));
let database: Database | undefined;
async function db() {
  database ??= await connectDatabase(config);
  return database.db;
}
let config: Config;

function issueNamed(published: boolean): UpdateIssue {
  if (!operand) fail("Name the issue by its slug (its file name in content/updates/ without .md).");
  return findIssue(content(), operand, { published });
}

async function requireLivePage(issue: UpdateIssue): Promise<void> {
  const check = await checkPageLive(absoluteUrl(config.siteUrl, issue.path));
  if (check.live) return;
  const problem = `The issue's page is not live: ${check.reason}, and the mail links to it.`;
  if (!options.force) {
    throw new Refusal(
      `${problem}\nPublish the issue, build and deploy the site, then run this again (--force mails it anyway).`,
    );
  }
  console.error(`Warning: ${problem} Mailing it anyway (--force).`);
}

async function confirm(question: string): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) throw new Refusal("Not asking on a non-interactive input: add --yes to send.");
  const reader = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await reader.question(`${question} [y/N] `);
  reader.close();
  return /^y(es)?$/i.test(answer.trim());
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

async function deliverAndWatch(sendId: number) {
  const stopped = new AbortController();
  process.once("SIGINT", () => stopped.abort());
  const startedAt = Date.now();
  const interactive = process.stderr.isTTY;
  let doneAtStart: number | undefined;
  let lastTenth = -1;
  const log = (message: string, error?: unknown) => console.error(`\n[newsletter] ${message}`, error ?? "");
  let progress!: SendProgress;
  for await (progress of deliverSend(await db(), config, sendId, log)) {
    const { total, sent, bounced, skipped } = progress;
    const done = sent + bounced + skipped;
    doneAtStart ??= done;
    const filled = total === 0 ? 30 : Math.round((done / total) * 30);
    const rate = (done - doneAtStart) / Math.max((Date.now() - startedAt) / 1000, Number.MIN_VALUE);
    const left = rate > 0 ? formatDuration((total - done) / rate) : "…";
    const extra = [bounced ? `${bounced} bounced` : "", skipped ? `${skipped} skipped` : ""].filter(Boolean);
    const line = `[${"#".repeat(filled)}${"-".repeat(30 - filled)}] ${sent}/${total} sent  ${rate.toFixed(1)}/s  ${left} left${extra.length ? `  (${extra.join(", ")})` : ""}`;
    const tenth = Math.floor((done / Math.max(total, 1)) * 10);
    if (interactive) process.stderr.write(`\r${line}\u001b[K`);
    else if (tenth !== lastTenth) console.error(line);
    lastTenth = tenth;
    if (stopped.signal.aborted) break;
  }
  if (interactive) process.stderr.write("\n");
  if (progress.send.paused_at) {
    printText(`Send #${sendId} is paused with ${progress.pending} to go: ${progress.send.pause_reason}`);
    process.exitCode = 1;
  } else if (stopped.signal.aborted) {
    const left = (await sendProgress(await db(), sendId))[0]?.pending ?? 0;
    console.log(
      `Stopped watching with ${plural(left, "mail")} left: the server (npm start) delivers them; \`npm run newsletter -- status\` shows the progress.`,
    );
    process.exitCode = 130;
  } else {
    const { sent, bounced, skipped } = progress;
    const bouncedText = bounced ? `, ${bounced} bounced (now left out)` : "";
    console.log(`Done: ${sent} sent${bouncedText}${skipped ? `, ${skipped} skipped (unsubscribed meanwhile)` : ""}.`);
  }
}

const commands: Record<string, () => Promise<void> | void> = {
  async draft() {
    const { title, digest } = options;
    const { path, slug, since } = await writeDraft(root, content(), await db(), { title, digest });
    console.log(`Wrote ${path}${since ? ` (listing what was published after ${since})` : ""}.`);
    console.log(
      `Edit it, check it with \`npm run newsletter -- preview ${slug}\`, then remove "draft: true" to publish it.`,
    );
  },
  preview() {
    console.log(writePreview(config, content(), issueNamed(false)).join("\n"));
  },
  async test() {
    const issue = issueNamed(false);
    await requireLivePage(issue);
    await mailTest(config, content(), issue);
    const { ownerEmail, smtpUrl, dataDir } = config;
    console.log(
      `Sent "${issue.title}" to ${ownerEmail}${smtpUrl ? "" : ` (written to ${join(dataDir, "mail")}: SMTP_URL is not set)`}.`,
    );
  },
  async send() {
    const issue = issueNamed(true);
    await requireLivePage(issue);
    const count = await confirmedCount(await db());
    if (count === 0) throw new Refusal("There is no confirmed subscriber yet: nothing to send.");
    const rate = config.newsletterRate ? `${config.newsletterRate} mails a minute` : "no rate limit";
    if (!(await confirm(`Send "${issue.title}" to ${plural(count, "confirmed subscriber")} (${rate})?`))) {
      return console.log("Not sent.");
    }
    const frozen = await freezeSend(await db(), issueToSend(issue, content().site.name, config.siteUrl), {
      messageIdDomain: messageIdDomainOf(config.mailFrom),
      again: options.again,
    });
    console.log(`Send #${frozen.send.id}: "${issue.title}" to ${plural(frozen.recipients, "recipient")}.`);
    await deliverAndWatch(frozen.send.id);
  },
  async resume() {
    if (!operand || !/^[1-9]\d*$/.test(operand)) fail("resume takes the number of a send (see `status`).");
    const [progress] = await sendProgress(await db(), Number(operand));
    if (!progress) throw new Refusal(`No send #${operand}.`);
    if (!progress.send.paused_at) throw new Refusal(`Send #${operand} is not paused.`);
    printText(`Send #${operand} was paused: ${progress.send.pause_reason}`);
    if (!(await confirm(`Is the cause fixed? Continue send #${operand} (${progress.pending} to go)?`))) {
      return console.log("Still paused.");
    }
    await resumeSend(await db(), Number(operand));
    console.log(`Send #${operand} continues.`);
    await deliverAndWatch(Number(operand));
  },
  async status() {
    const sends = await sendFigures(await db());
    if (sends.length === 0) console.log("Nothing sent yet.");
    for (const { send, total, sent, bounced, skipped, pending, hard, soft, complaints, unsubscribed } of sends) {
      const state = send.paused_at
        ? `${pending} pending, PAUSED since ${send.paused_at}: ${send.pause_reason}`
        : pending === 0
          ? "done"
          : `${pending} pending`;
      const counts = `${sent}/${total} sent, ${bounced} bounced, ${skipped} skipped`;
      printText(`#${send.id}  ${send.created_at}  ${send.slug}  "${send.subject}"  ${counts}, ${state}`);
      const line = complaints / Math.max(sent, 1) > COMPLAINT_LINE ? "ABOVE" : "under";
      console.log(
        `    ${sent} delivered, bounced ${hard} hard and ${soft} soft, ${complaints} complained (${percent(complaints, sent)}, ${line} Gmail's 0.3% line), ${unsubscribed} unsubscribed`,
      );
    }
  },
  async bounces() {
    const { bounceImapUrl } = config;
    if (!bounceImapUrl) throw new Refusal("BOUNCE_IMAP_URL is not set (docs/mail-deliverability.md).");
    // Imported here: the IMAP client and the mail parser cost every other command, a send among them, about 15 MB.
    const { BounceMailboxError, readBounceMailbox, UNREADABLE_FOLDER } = await import(
      "../services/newsletter/bounces.ts"
    );
    const pass = readBounceMailbox(await db(), { ...config, bounceImapUrl }, printText);
    const { counts, unreadable } = await pass.catch((error: Error) => {
      throw error instanceof BounceMailboxError ? new Refusal(`BOUNCE_IMAP_URL: ${error.message}`) : error;
    });
    const { hard, soft, delayed, complaint, alreadyCounted } = counts;
    console.log(
      `Read ${plural(hard, "hard bounce")}, ${plural(soft, "soft bounce")}, ${delayed} delayed, ${plural(complaint, "complaint")}; ${alreadyCounted} already counted, ${counts.unreadable} moved to ${UNREADABLE_FOLDER}.`,
    );
    console.log(`${UNREADABLE_FOLDER} holds ${plural(unreadable.length, "message")}${unreadable.length ? ":" : "."}`);
    for (const line of unreadable) printText(`  ${line}`);
  },
  keys() {
    const { selector } = options;
    if (!DKIM_SELECTOR.test(selector))
      fail(`--selector takes letters, digits and hyphens (a DNS name), not ${JSON.stringify(selector)}.`);
    const file = config.dkimKeyFile;
    if (!writeDkimKey(file, selector, { replace: options.replace })) {
      throw new Refusal(`${file} already holds a key (selector ${config.dkim?.selector}): --replace makes a new one.`);
    }
    console.log(`Wrote a DKIM key to ${file} (selector ${selector}, readable by its owner only).`);
    console.log("Publish its record (npm run newsletter -- dns), then restart the server: it signs every mail.");
  },
  async dns() {
    if (!options.check) {
      for (const record of senderRecords(config)) if (record.value) console.log(zoneLine(record));
      if (!config.dkim)
        throw new Refusal("No DKIM key yet, so no DKIM record: `npm run newsletter -- keys` makes one.");
      return;
    }
    const resolver = new Resolver({ timeout: 5000, tries: 2 });
    try {
      if (options.server) resolver.setServers([options.server]);
    } catch {
      fail("--server takes an IP address, with :port when not 53 (e.g. 1.1.1.1 or [::1]:5353).");
    }
    const checks = await checkSenderRecords(resolver, config);
    for (const { kind, name, problem, found } of checks) printText(`${kind} ${name}: ${problem ?? `ok, "${found}"`}`);
    if (checks.some((check) => check.problem)) process.exitCode = 1;
  },
  async subscribers() {
    const status = options.status as SubscriberStatus | undefined;
    if (status !== undefined && !SUBSCRIBER_STATUSES.includes(status)) {
      fail(`--status takes one of ${SUBSCRIBER_STATUSES.join(", ")}.`);
    }
    const rows = await listSubscribers(await db(), status);
    for (const row of rows) {
      const when = row.status === "unsubscribed" ? row.unsubscribed_at : (row.confirmed_at ?? row.created_at);
      printText(`${row.email}  ${row.status}  ${when}`);
    }
    const counts = SUBSCRIBER_STATUSES.map((name) => `${rows.filter((row) => row.status === name).length} ${name}`);
    console.log(rows.length === 0 ? "No subscribers." : `${rows.length} in all: ${counts.join(", ")}.`);
  },
  async export() {
    process.stdout.write(subscribersCsv(await listSubscribers(await db())));
  },
  async import() {
    if (!operand) fail("import takes the path of a CSV file.");
    if (!existsSync(operand)) throw new Refusal(`No file ${operand}.`);
    const result = await importSubscribers(await db(), readFileSync(operand, "utf8"));
    if (!result.ok) throw new Refusal(terminalText(`Nothing imported:\n  ${result.problems.join("\n  ")}`));
    console.log(
      `Imported: ${result.added} added, ${result.confirmed} pending made confirmed, ${result.unchanged} already there (or unsubscribed, left as they are).`,
    );
  },
  async remove() {
    if (!operand) fail("remove takes an email address.");
    if (!(await removeSubscriber(await db(), operand))) throw new Refusal(`No subscriber ${operand}.`);
    console.log(`Erased ${operand} and every record of their subscription.`);
  },
};

if (argv.length === 0 || options.help || command === "help") console.log(HELP);
else if (!Object.hasOwn(commands, command)) fail(`Unknown command "${command}".`);
else {
  try {
    const owner = readOwner(root);
    config = readConfig(process.env, { ownerEmail: owner.email, ownerName: owner.name });
    await commands[command]?.();
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof ConfigError || error instanceof ContentError)) throw error;
    const problem = error instanceof ContentError ? "The content has a problem (npm run check:content):\n" : "";
    console.error(`${problem}${error.message}`);
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}
