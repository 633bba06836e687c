// Runs beside the running server or while it is stopped, with the same environment.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { contentRoot } from "../catalogue/content-root.ts";
import { loadCatalogue } from "../catalogue/disk.ts";
import { type Catalogue, ContentError } from "../catalogue/load.ts";
import { chooseSlug, contentDateOf } from "../catalogue/new-item.ts";
import { readOwner } from "../catalogue/owner-file.ts";
import type { UpdateIssue } from "../catalogue/schema.ts";
import { absoluteUrl } from "../catalogue/site-url.ts";
import { type Config, ConfigError, readConfig } from "../services/config.ts";
import { connectDatabase, type Database, type SubscriberStatus } from "../services/db/database.ts";
import { messageIdDomainOf } from "../services/mail/outbox.ts";
import { createMailer } from "../services/mail/transport.ts";
import { draftText, issueContentOf, issueToSend } from "../services/newsletter/issue.ts";
import { checkPageLive } from "../services/newsletter/live-page.ts";
import { issueMail, listUnsubscribeHeaders, unsubscribeUrl } from "../services/newsletter/mail.ts";
import {
  importSubscribers,
  listSubscribers,
  removeSubscriber,
  SUBSCRIBER_STATUSES,
  subscribersCsv,
} from "../services/newsletter/subscribers.ts";
import {
  AlreadySentError,
  createNewsletterWorker,
  freezeSend,
  resumeSend,
  type SendProgress,
  sendProgress,
} from "../services/newsletter/worker.ts";
import { terminalText } from "./terminal-text.ts";

const HELP = `Usage: npm run newsletter -- <command> [options]

Writing an issue (files in content/updates/):
  draft [--title "Title"]      write a new draft issue, listing the essays and book notes
                               published since the last sent issue; edit it, then remove
                               "draft: true" to publish it on /updates
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
  status                       the progress of every send, and why a send is paused
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

Options: --root <folder> reads <folder>/content instead of ./content (or CONTENT_ROOT's). --help: this text.
Uses the database in DATA_DIR (now ${resolve(process.env.DATA_DIR || "./data")}); without SMTP_URL
mails are written to DATA_DIR/mail/ as .eml files.`;

function fail(message: string, code = 2): never {
  console.error(code === 2 ? `${message}\n\nRun \`npm run newsletter -- --help\` for the commands.` : message);
  process.exit(code);
}

const COMMANDS = ["draft", "preview", "test", "send", "resume", "status", "subscribers", "export", "import", "remove"];

type Args = {
  command: string;
  positional: string[];
  title?: string;
  status?: string;
  root?: string;
  yes?: boolean;
  again: boolean;
  force: boolean;
};

function readArgs(argv: string[]): Args {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        title: { type: "string" },
        status: { type: "string" },
        root: { type: "string" },
        yes: { type: "boolean" },
        again: { type: "boolean" },
        force: { type: "boolean" },
      },
    });
    const [command = "", ...positional] = positionals;
    return { ...values, command, positional, again: values.again ?? false, force: values.force ?? false };
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

function loadContent(root: string): Catalogue {
  try {
    return loadCatalogue(root);
  } catch (error) {
    if (error instanceof ContentError) fail(`The content has a problem (npm run check:content):\n${error.message}`, 1);
    throw error;
  }
}

function loadConfig(root: string): Config {
  try {
    const owner = readOwner(root);
    return readConfig(process.env, { ownerEmail: owner.email, ownerName: owner.name });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 1);
    throw error;
  }
}

function findIssue(catalogue: Catalogue, slug: string | undefined, { published }: { published: boolean }): UpdateIssue {
  if (!slug) fail("Name the issue by its slug (its file name in content/updates/ without .md).");
  const issue = [...catalogue.updates, ...catalogue.updateDrafts].find((candidate) => candidate.slug === slug);
  if (!issue) {
    const known = [...catalogue.updates, ...catalogue.updateDrafts].map((candidate) => candidate.slug);
    fail(`No issue "${slug}" in content/updates/.${known.length ? ` Issues: ${known.join(", ")}.` : ""}`, 1);
  }
  if (published && issue.draft) fail(`"${slug}" is a draft: remove "draft: true" from its file to send it.`, 1);
  return issue;
}

function progressLine(progress: SendProgress, startedAt: number, doneAtStart: number): string {
  const done = progress.sent + progress.bounced + progress.skipped;
  const width = 30;
  const filled = progress.total === 0 ? width : Math.round((done / progress.total) * width);
  const seconds = (Date.now() - startedAt) / 1000;
  const rate = seconds > 0 ? (done - doneAtStart) / seconds : 0;
  const left = rate > 0 ? (progress.total - done) / rate : Number.NaN;
  const timeLeft = Number.isFinite(left) ? formatDuration(left) : "…";
  const extra = [
    progress.bounced ? `${progress.bounced} bounced` : "",
    progress.skipped ? `${progress.skipped} skipped` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${progress.sent}/${progress.total} sent  ${rate.toFixed(1)}/s  ${timeLeft} left${extra ? `  (${extra})` : ""}`;
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** Refuses to mail an issue whose page is not live at SITE_URL, unless --force. */
async function requireLivePage(issue: UpdateIssue, config: Config, args: Args): Promise<void> {
  const check = await checkPageLive(absoluteUrl(config.siteUrl, issue.path));
  if (check.live) return;
  const problem = `The issue's page is not live: ${check.reason}, and the mail links to it.`;
  if (!args.force) {
    fail(`${problem}\nPublish the issue, build and deploy the site, then run this again (--force mails it anyway).`, 1);
  }
  console.error(`Warning: ${problem} Mailing it anyway (--force).`);
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) fail("Not asking on a non-interactive input: add --yes to send.", 1);
  const reader = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await reader.question(`${question} [y/N] `);
  reader.close();
  return /^y(es)?$/i.test(answer.trim());
}

async function send(database: Database, config: Config, catalogue: Catalogue, args: Args) {
  const issue = findIssue(catalogue, args.positional[0], { published: true });
  await requireLivePage(issue, config, args);
  const recipients = await database.db
    .selectFrom("subscribers")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("status", "=", "confirmed")
    .executeTakeFirstOrThrow();
  const count = Number(recipients.count);
  if (count === 0) fail("There is no confirmed subscriber yet: nothing to send.", 1);
  if (!args.yes) {
    const rate = config.newsletterRate ? `${config.newsletterRate} mails a minute` : "no rate limit";
    if (
      !(await confirm(`Send "${issue.title}" to ${count} confirmed subscriber${count === 1 ? "" : "s"} (${rate})?`))
    ) {
      console.log("Not sent.");
      return;
    }
  }
  let frozen: Awaited<ReturnType<typeof freezeSend>>;
  try {
    frozen = await freezeSend(database.db, issueToSend(issue, catalogue.site.name, config.siteUrl), {
      messageIdDomain: messageIdDomainOf(config.mailFrom),
      again: args.again,
    });
  } catch (error) {
    if (error instanceof AlreadySentError) fail(`${error.message} Add --again to send it once more.`, 1);
    throw error;
  }
  console.log(
    `Send #${frozen.send.id}: "${issue.title}" to ${frozen.recipients} recipient${frozen.recipients === 1 ? "" : "s"}.`,
  );
  await deliverAndWatch(database, config, frozen.send.id);
}

async function resume(database: Database, config: Config, args: Args) {
  const id = args.positional[0];
  if (!id || !/^[1-9]\d*$/.test(id)) fail("resume takes the number of a send (see `status`).");
  const [progress] = await sendProgress(database.db, Number(id));
  if (!progress) fail(`No send #${id}.`, 1);
  if (!progress.send.paused_at) fail(`Send #${id} is not paused.`, 1);
  console.log(terminalText(`Send #${id} was paused: ${progress.send.pause_reason}`));
  if (!args.yes && !(await confirm(`Is the cause fixed? Continue send #${id} (${progress.pending} to go)?`))) {
    console.log("Still paused.");
    return;
  }
  await resumeSend(database.db, Number(id));
  console.log(`Send #${id} continues.`);
  await deliverAndWatch(database, config, Number(id));
}

async function deliverAndWatch(database: Database, config: Config, sendId: number) {
  const mailer = createMailer(config, { pool: true });
  const worker = createNewsletterWorker(database.db, mailer, {
    secretKey: config.secretKey,
    siteUrl: config.siteUrl,
    rate: config.newsletterRate,
    batch: config.newsletterBatch,
    log: (message, error) => console.error(`\n[newsletter] ${message}`, error ?? ""),
  });
  worker.start();
  let stopped = false;
  process.once("SIGINT", () => {
    stopped = true;
  });
  const startedAt = Date.now();
  const interactive = process.stderr.isTTY;
  let lastPrinted = -1;
  let progress = (await sendProgress(database.db, sendId))[0] as SendProgress;
  const doneAtStart = progress.sent + progress.bounced + progress.skipped;
  for (;;) {
    progress = (await sendProgress(database.db, sendId))[0] as SendProgress;
    const line = progressLine(progress, startedAt, doneAtStart);
    if (interactive) process.stderr.write(`\r${line}\u001b[K`);
    else {
      const tenth = Math.floor(((progress.total - progress.pending) / Math.max(progress.total, 1)) * 10);
      if (tenth !== lastPrinted) console.error(line);
      lastPrinted = tenth;
    }
    if (progress.pending === 0 || progress.send.paused_at || stopped) break;
    await new Promise((done) => setTimeout(done, 500));
  }
  if (interactive) process.stderr.write("\n");
  await worker.stop();
  mailer.close();
  if (progress.send.paused_at) {
    console.log(
      terminalText(`Send #${sendId} is paused with ${progress.pending} to go: ${progress.send.pause_reason}`),
    );
    process.exitCode = 1;
    return;
  }
  if (stopped) {
    const left = (await sendProgress(database.db, sendId))[0]?.pending ?? 0;
    console.log(
      `Stopped watching with ${left} mail${left === 1 ? "" : "s"} left: the server (npm start) delivers them; \`npm run newsletter -- status\` shows the progress.`,
    );
    process.exitCode = 130;
    return;
  }
  console.log(
    `Done: ${progress.sent} sent${progress.bounced ? `, ${progress.bounced} bounced (now left out)` : ""}${progress.skipped ? `, ${progress.skipped} skipped (unsubscribed meanwhile)` : ""}.`,
  );
}

async function main(argv: string[]) {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    console.log(HELP);
    return;
  }
  const args = readArgs(argv);
  const root = resolve(args.root ?? contentRoot(process.cwd()));
  if (!COMMANDS.includes(args.command)) fail(`Unknown command "${args.command}".`);

  const config = loadConfig(root);

  if (args.command === "draft" || args.command === "preview" || args.command === "test") {
    const catalogue = loadContent(root);
    if (args.command === "draft") {
      const database = await connectDatabase(config);
      const lastSend = await database.db
        .selectFrom("newsletter_sends")
        .select("slug")
        .orderBy("id", "desc")
        .executeTakeFirst();
      await database.close();
      const sinceIssue = [...catalogue.updates, ...catalogue.updateDrafts].find(
        (issue) => issue.slug === lastSend?.slug,
      );
      const since = sinceIssue?.date ?? catalogue.updates[0]?.date;
      const today = new Date();
      const title = String(args.title ?? `Update of ${today.toLocaleString("en", { month: "long", year: "numeric" })}`);
      const existing = new Set([...catalogue.updates, ...catalogue.updateDrafts].map((issue) => issue.slug));
      const slug = chooseSlug(title, existing);
      const path = join(root, "content/updates", `${slug}.md`);
      mkdirSync(join(root, "content/updates"), { recursive: true });
      if (existsSync(path)) fail(`${path} exists already.`, 1);
      writeFileSync(path, draftText(catalogue, { title, date: contentDateOf(today), since }), { flag: "wx" });
      console.log(`Wrote ${path}${since ? ` (listing what was published after ${since})` : ""}.`);
      console.log(
        `Edit it, check it with \`npm run newsletter -- preview ${slug}\`, then remove "draft: true" to publish it.`,
      );
      return;
    }
    const issue = findIssue(catalogue, args.positional[0], { published: false });
    const content = issueToSend(issue, catalogue.site.name, config.siteUrl);
    // The preview's link names nobody: opened, it shows the page for a link that is not valid.
    const link = unsubscribeUrl(config.siteUrl, "preview");
    const mail = issueMail(issueContentOf(content, config.siteUrl), link);
    if (args.command === "preview") {
      const folder = join(config.dataDir, "newsletter-preview");
      mkdirSync(folder, { recursive: true });
      const html = join(folder, `${issue.slug}.html`);
      const text = join(folder, `${issue.slug}.txt`);
      writeFileSync(html, mail.html);
      writeFileSync(text, mail.text);
      console.log(`${html}\n${text}`);
      return;
    }
    await requireLivePage(issue, config, args);
    const mailer = createMailer(config);
    try {
      await mailer.deliver({
        messageId: `<newsletter-test.${Date.now()}.${issue.slug}@${messageIdDomainOf(config.mailFrom)}>`,
        date: new Date(),
        to: config.ownerEmail,
        fromName: catalogue.site.name,
        subject: `[Test] ${issue.title}`,
        text: mail.text,
        html: mail.html,
        headers: listUnsubscribeHeaders(link),
      });
    } catch (error) {
      fail(`The test mail was not sent: ${error instanceof Error ? error.message : String(error)}`, 1);
    } finally {
      mailer.close();
    }
    console.log(
      `Sent "${issue.title}" to ${config.ownerEmail}${config.smtpUrl ? "" : ` (written to ${join(config.dataDir, "mail")}: SMTP_URL is not set)`}.`,
    );
    return;
  }

  const database = await connectDatabase(config);
  try {
    switch (args.command) {
      case "send":
        await send(database, config, loadContent(root), args);
        return;
      case "resume":
        await resume(database, config, args);
        return;
      case "status": {
        const sends = await sendProgress(database.db);
        if (sends.length === 0) console.log("Nothing sent yet.");
        for (const progress of sends) {
          const { paused_at, pause_reason } = progress.send;
          const state = paused_at
            ? `${progress.pending} pending, PAUSED since ${paused_at}: ${pause_reason}`
            : progress.pending === 0
              ? "done"
              : `${progress.pending} pending`;
          console.log(
            terminalText(
              `#${progress.send.id}  ${progress.send.created_at}  ${progress.send.slug}  "${progress.send.subject}"  ${progress.sent}/${progress.total} sent, ${progress.bounced} bounced, ${progress.skipped} skipped, ${state}`,
            ),
          );
        }
        return;
      }
      case "subscribers": {
        const status = args.status;
        if (status !== undefined && !SUBSCRIBER_STATUSES.includes(status as SubscriberStatus)) {
          fail(`--status takes one of ${SUBSCRIBER_STATUSES.join(", ")}.`);
        }
        const rows = await listSubscribers(database.db, status as SubscriberStatus | undefined);
        for (const row of rows) {
          const when = row.status === "unsubscribed" ? row.unsubscribed_at : (row.confirmed_at ?? row.created_at);
          console.log(terminalText(`${row.email}  ${row.status}  ${when}`));
        }
        const counts = SUBSCRIBER_STATUSES.map((name) => `${rows.filter((row) => row.status === name).length} ${name}`);
        console.log(rows.length === 0 ? "No subscribers." : `${rows.length} in all: ${counts.join(", ")}.`);
        return;
      }
      case "export":
        process.stdout.write(subscribersCsv(await listSubscribers(database.db)));
        return;
      case "import": {
        const file = args.positional[0];
        if (!file) fail("import takes the path of a CSV file.");
        if (!existsSync(file)) fail(`No file ${file}.`, 1);
        const result = await importSubscribers(database.db, readFileSync(file, "utf8"));
        if (!result.ok) fail(terminalText(`Nothing imported:\n  ${result.problems.join("\n  ")}`), 1);
        console.log(
          `Imported: ${result.added} added, ${result.confirmed} pending made confirmed, ${result.unchanged} already there (or unsubscribed, left as they are).`,
        );
        return;
      }
      case "remove": {
        const email = args.positional[0];
        if (!email) fail("remove takes an email address.");
        if (await removeSubscriber(database.db, email))
          console.log(`Erased ${email} and every record of their subscription.`);
        else fail(`No subscriber ${email}.`, 1);
        return;
      }
    }
  } finally {
    await database.close();
  }
}

await main(process.argv.slice(2));
