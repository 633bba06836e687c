/**
 * The bounce mailbox at scale: a newsletter send to 10,000 subscribers, answered by as many reports
 * in a real Dovecot mailbox (Gmail and Outlook hard bounces, Postfix soft bounces and delays, Yahoo
 * complaints), then read by the owner's own command `npm run newsletter -- bounces`. Its wall time
 * and its peak resident set, sampled every 100 ms.
 *
 * Runs alone with `npx tsx bench/bounce-mailbox.ts` (BENCH_REPORTS: 10000), or as a section of `npm run bench`.
 */
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ImapFlow } from "imapflow";
import { loadCatalogue } from "../catalogue/disk.ts";
import { openDatabase } from "../services/db/database.ts";
import { messageIdDomainOf } from "../services/mail/outbox.ts";
import { returnPath } from "../services/mail/transport.ts";
import { issueToSend } from "../services/newsletter/issue.ts";
import { importSubscribers } from "../services/newsletter/subscribers.ts";
import { returnPathToken } from "../services/newsletter/tokens.ts";
import { freezeSend } from "../services/newsletter/worker.ts";
import { startImap } from "../tests/support/imap.ts";
import {
  type Answered,
  gmailHardBounce,
  outlookHardBounce,
  postfixSoftBounce,
  yahooComplaint,
} from "../tests/support/reports.ts";
import { installExitHandlers, residentKb, startChild, tempDir } from "./processes.ts";
import { round1 } from "./stats.ts";

const ROOT = resolve(import.meta.dirname, "..");
const MAIL_FROM = "news@example.org";

export type BounceMailboxFigures = {
  reports: number;
  /** The command, start to exit. */
  seconds: number;
  reportsPerSecond: number;
  peakRssMb: number;
  /** What the command said it read. */
  summary: string;
};

/** One report in twenty of each kind but hard bounces, which are the rest. */
const REPORT_KINDS = [
  (mail: Answered) => postfixSoftBounce(mail),
  (mail: Answered) => postfixSoftBounce(mail, "delayed"),
  (mail: Answered) => yahooComplaint(mail),
  ...Array.from({ length: 17 }, (_, index) => (index % 2 ? gmailHardBounce : outlookHardBounce)),
];

export async function measureBounceMailbox({
  reports = 10_000,
  log = (message: string) => console.error(message),
}: {
  reports?: number;
  log?: (message: string) => void;
} = {}): Promise<BounceMailboxFigures> {
  const issue = loadCatalogue(ROOT).updates[0];
  if (!issue) throw new Error("content/updates/ has no published issue to answer");
  const dataDir = tempDir("bounce-mailbox");
  const secretKey = randomBytes(32).toString("hex");
  const database = await openDatabase(dataDir);
  let deliveries: { send_id: number; subscriber_id: number; message_id: string; email: string }[];
  try {
    const emails = Array.from({ length: reports }, (_, index) => `reader-${index}@example.org`);
    const imported = await importSubscribers(database.db, `email\n${emails.join("\n")}\n`);
    if (!imported.ok) throw new Error(imported.problems.join("; "));
    await freezeSend(database.db, issueToSend(issue, "Bench", "https://example.org"), {
      messageIdDomain: messageIdDomainOf(MAIL_FROM),
    });
    deliveries = await database.db
      .selectFrom("newsletter_deliveries")
      .innerJoin("subscribers", "subscribers.id", "newsletter_deliveries.subscriber_id")
      .select(["send_id", "subscriber_id", "message_id", "email"])
      .execute();
  } finally {
    await database.close();
  }

  const imap = await startImap();
  try {
    log(`bounce mailbox: filing ${reports} reports`);
    const client = new ImapFlow({ ...imapSettings(imap.url), logger: false });
    await client.connect();
    try {
      for (const [index, delivery] of deliveries.entries()) {
        const answered: Answered = {
          raw: `From: ${MAIL_FROM}\r\nTo: ${delivery.email}\r\nSubject: ${issue.title}\r\nMessage-ID: ${delivery.message_id}\r\n\r\nThe issue.\r\n`,
          returnPath: returnPath(MAIL_FROM, returnPathToken(secretKey, delivery.send_id, delivery.subscriber_id)),
          recipient: delivery.email,
        };
        const report = REPORT_KINDS[index % REPORT_KINDS.length] as (mail: Answered) => string;
        await client.append("INBOX", report(answered));
      }
    } finally {
      await client.logout();
    }

    log("bounce mailbox: npm run newsletter -- bounces");
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: dataDir,
      SECRET_KEY: secretKey,
      SITE_URL: "https://example.org",
      MAIL_FROM,
      BOUNCE_IMAP_URL: imap.url,
    };
    const reading = startChild(process.execPath, ["--import", "tsx", "scripts/newsletter.ts", "bounces"], {
      cwd: ROOT,
      env,
    });
    const started = performance.now();
    let peakKb = 0;
    const sampler = setInterval(() => {
      if (reading.process.pid) peakKb = Math.max(peakKb, residentKb(reading.process.pid));
    }, 100);
    const code = await reading.exited;
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`bounces exited with ${code}:\n${reading.output().slice(-2000)}`);
    return {
      reports,
      seconds: round1(seconds),
      reportsPerSecond: Math.round(reports / seconds),
      peakRssMb: round1(peakKb / 1024),
      summary: /^Read .*$/m.exec(reading.output())?.[0] ?? "",
    };
  } finally {
    await imap.stop();
  }
}

function imapSettings(url: string) {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port),
    secure: false,
    auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) },
  };
}

export const describeBounceMailbox = (figures: BounceMailboxFigures) =>
  [
    `Bounce mailbox: ${figures.reports.toLocaleString("en-US")} reports in Dovecot, read by npm run newsletter -- bounces`,
    `  ${figures.seconds} s (${figures.reportsPerSecond} reports/s), peak RSS ${figures.peakRssMb} MB`,
    `  ${figures.summary}`,
  ].join("\n");

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  installExitHandlers();
  const figures = await measureBounceMailbox({ reports: Number(process.env.BENCH_REPORTS ?? 10_000) });
  console.log(describeBounceMailbox(figures));
  process.exit(0);
}
