/**
 * Newsletter delivery: 10,000 confirmed subscribers in a temporary DATA_DIR holding a DKIM key, so
 * every mail is signed as in production, the owner's own command `npm run newsletter -- send <slug> --yes` with NEWSLETTER_RATE=unlimited, and
 * an SMTP sink on 127.0.0.1 that accepts and counts (no parsing, so the sink costs little of the
 * machine). Mails per second are counted at the sink, from its first accepted mail to its last;
 * the memory is the sending process's resident set, sampled every 100 ms (peak).
 *
 * Runs alone with `npx tsx bench/newsletter.ts` (BENCH_RECIPIENTS: 10000), or as a section of
 * `npm run bench`.
 */
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { SMTPServer } from "smtp-server";
import { loadCatalogue } from "../catalogue/disk.ts";
import { openDatabase } from "../services/db/database.ts";
import { writeDkimKey } from "../services/mail/authentication.ts";
import { importSubscribers } from "../services/newsletter/subscribers.ts";
import { cpuMs, installExitHandlers, residentKb, startChild, tempDir } from "./processes.ts";
import { round1 } from "./stats.ts";

const ROOT = resolve(import.meta.dirname, "..");

export type NewsletterFigures = {
  recipients: number;
  /** Mails accepted by the sink per second, first to last. */
  mailsPerSecond: number;
  /** From the first accepted mail to the last. */
  deliverySeconds: number;
  /** The whole command: start, freezing the send, delivery, exit. */
  commandSeconds: number;
  /** Peak resident set of the sending process, MB. */
  peakRssMb: number;
  /** Its resident set as the first mail is accepted: the code, the catalogue and the frozen send. */
  rssAtFirstMailMb: number;
  /** The sending process's CPU time (all its threads) per delivered mail, from the first mail to the last. */
  cpuMsPerMail: number;
  /** Distinct recipients the sink saw (each exactly once when it equals `recipients`). */
  distinctRecipients: number;
  batch: number;
};

type Sink = {
  url: string;
  accepted: () => number;
  recipients: () => number;
  span: () => number;
  stop(): Promise<void>;
};

/** An SMTP server that accepts every mail, drops its body, and notes the time and the recipient. */
function startSink(): Promise<Sink> {
  let accepted = 0;
  let first = 0;
  let last = 0;
  const recipients = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        accepted++;
        last = performance.now();
        if (accepted === 1) first = last;
        for (const rcpt of session.envelope.rcptTo) recipients.add(rcpt.address);
        callback();
      });
    },
  });
  return new Promise((done, fail) => {
    server.server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.server.address() as AddressInfo;
      done({
        url: `smtp://127.0.0.1:${port}`,
        accepted: () => accepted,
        recipients: () => recipients.size,
        span: () => last - first,
        stop: () => new Promise<void>((closed) => server.close(() => closed())),
      });
    });
  });
}

export async function measureNewsletter({
  recipients = 10_000,
  log = (message: string) => console.error(message),
}: {
  recipients?: number;
  log?: (message: string) => void;
} = {}): Promise<NewsletterFigures> {
  const issue = loadCatalogue(ROOT).updates[0];
  if (!issue) throw new Error("content/updates/ has no published issue to send");
  const dataDir = tempDir("newsletter");
  writeDkimKey(resolve(dataDir, "dkim.pem"), "bench");
  const database = await openDatabase(dataDir);
  try {
    const emails = Array.from({ length: recipients }, (_, index) => `reader-${index}@example.org`);
    const imported = await importSubscribers(database.db, `email\n${emails.join("\n")}\n`);
    if (!imported.ok) throw new Error(imported.problems.join("; "));
  } finally {
    await database.close();
  }
  const sink = await startSink();
  const batch = 20;
  try {
    log(`newsletter: sending "${issue.slug}" to ${recipients} subscribers`);
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: dataDir,
      SMTP_URL: sink.url,
      SITE_URL: "https://example.org",
      MAIL_FROM: "news@example.org",
      NEWSLETTER_RATE: "unlimited",
      NEWSLETTER_BATCH: String(batch),
    };
    const sending = startChild(
      process.execPath,
      // --force: no site is deployed at SITE_URL for the bench, whose mails go to a local sink.
      ["--import", "tsx", "scripts/newsletter.ts", "send", issue.slug, "--yes", "--force"],
      { cwd: ROOT, env },
    );
    const started = performance.now();
    let peakKb = 0;
    let atFirstMail: { kb: number; cpu: number; mails: number } | undefined;
    let lastCpu = { cpu: 0, mails: 0 };
    const sampler = setInterval(() => {
      const pid = sending.process.pid;
      if (!pid) return;
      const kb = residentKb(pid);
      peakKb = Math.max(peakKb, kb);
      const mails = sink.accepted();
      const cpu = cpuMs(pid);
      if (mails > 0 && cpu > 0) {
        atFirstMail ??= { kb, cpu, mails };
        lastCpu = { cpu, mails };
      }
    }, 100);
    const code = await sending.exited;
    clearInterval(sampler);
    const commandSeconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`the send exited with ${code}:\n${sending.output().slice(-2000)}`);
    const deliverySeconds = sink.span() / 1000;
    return {
      recipients,
      mailsPerSecond: Math.round(sink.accepted() / Math.max(deliverySeconds, 0.001)),
      deliverySeconds: round1(deliverySeconds),
      commandSeconds: round1(commandSeconds),
      peakRssMb: round1(peakKb / 1024),
      rssAtFirstMailMb: round1((atFirstMail?.kb ?? 0) / 1024),
      cpuMsPerMail: atFirstMail
        ? Math.round(((lastCpu.cpu - atFirstMail.cpu) / Math.max(lastCpu.mails - atFirstMail.mails, 1)) * 100) / 100
        : 0,
      distinctRecipients: sink.recipients(),
      batch,
    };
  } finally {
    await sink.stop();
  }
}

export function describeNewsletter(figures: NewsletterFigures): string {
  return [
    `Newsletter delivery: ${figures.recipients.toLocaleString("en-US")} recipients, each mail signed with DKIM, NEWSLETTER_RATE=unlimited, batch ${figures.batch}, one pooled SMTP connection to a local sink`,
    `  ${figures.mailsPerSecond} mails/s (${figures.deliverySeconds} s from the first mail to the last; the command took ${figures.commandSeconds} s)`,
    `  sending process: peak RSS ${figures.peakRssMb} MB (${figures.rssAtFirstMailMb} MB as the first mail went out), ${figures.cpuMsPerMail} ms of CPU per mail; ${figures.distinctRecipients.toLocaleString("en-US")} distinct recipients received`,
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  installExitHandlers();
  const figures = await measureNewsletter({ recipients: Number(process.env.BENCH_RECIPIENTS ?? 10_000) });
  console.log(describeNewsletter(figures));
  process.exit(0);
}
