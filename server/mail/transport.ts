/**
 * How a contact message becomes a mail to the owner.
 *
 * - With `SMTP_URL`: sent through nodemailer's SMTP transport, with short timeouts so that a dead
 *   server fails an attempt quickly and the outbox retries later.
 * - Without it: written as the full RFC 822 message to `${dataDir}/mail/<message-id>.eml`. The file
 *   is written under a temporary name and renamed, so a crash never leaves half a mail, and a
 *   second delivery of the same message replaces the same file.
 *
 * The mail goes To the owner, From `MAIL_FROM`, with the visitor's address as Reply-To and in no
 * other header. The subject was validated (one line); line breaks are removed here once more so
 * that no CR/LF can ever reach a header, whatever the caller did.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";
import { needsSmtpUtf8, SMTPUTF8_HEADERS } from "./smtputf8.ts";

export type OutgoingMail = {
  /** RFC 5322 Message-ID with angle brackets, identical on every attempt. */
  messageId: string;
  /** The Date header: when the visitor sent the message (or the send was started). */
  date: Date;
  /** The recipient; the owner when absent (a contact message). */
  to?: string;
  /** The visitor's (validated) address, for a contact message. */
  replyTo?: string;
  /** The display name of the sender (the owner's name on the newsletter). */
  fromName?: string;
  subject: string;
  text: string;
  /** An HTML alternative to the text (the newsletter). */
  html?: string;
  /** Extra headers (List-Unsubscribe); names and values are the site's own, never a visitor's. */
  headers?: Record<string, string>;
};

export type Mailer = {
  readonly kind: "smtp" | "file";
  /** Resolves once the SMTP server accepted the mail (or the file is in place); rejects otherwise. */
  deliver(mail: OutgoingMail): Promise<void>;
  close(): void;
};

export type MailerConfig = Pick<Config, "smtpUrl" | "dataDir" | "ownerEmail" | "mailFrom" | "ownerName">;

export type MailerOptions = {
  /** Milliseconds to open the connection, to get the greeting, and of socket inactivity. */
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
  /** Keep the SMTP connection open between mails (the newsletter worker). */
  pool?: boolean;
};

/** The folder of the .eml files when there is no SMTP server. */
export function mailDir(dataDir: string): string {
  return join(dataDir, "mail");
}

/** `<id@host>` → `id@host.eml`, keeping only characters that are safe in a file name. */
export function emlFileName(messageId: string): string {
  const bare = messageId.replace(/^<|>$/g, "").replace(/[^A-Za-z0-9._@-]/g, "_");
  return `${bare}.eml`;
}

function mailOptions(config: MailerConfig, mail: OutgoingMail) {
  const to = mail.to ?? config.ownerEmail;
  return {
    // The site's mail comes from its owner by name: "Avery Quinn <hello@…>".
    from: { name: mail.fromName ?? config.ownerName, address: config.mailFrom },
    to: { name: "", address: to },
    ...(mail.replyTo ? { replyTo: { name: "", address: mail.replyTo } } : {}),
    subject: mail.subject.replace(/[\r\n\u0085\u2028\u2029]+/g, " "),
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    ...(mail.headers ? { headers: mail.headers } : {}),
    messageId: mail.messageId,
    date: mail.date,
    // The envelope names only the recipient and the site's sender, never a visitor's Reply-To.
    envelope: { from: config.mailFrom, to },
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

export function createMailer(config: MailerConfig, options: MailerOptions = {}): Mailer {
  if (config.smtpUrl) {
    const smtpOptions = {
      url: config.smtpUrl,
      connectionTimeout: options.connectionTimeoutMs ?? 15_000,
      greetingTimeout: options.greetingTimeoutMs ?? 15_000,
      socketTimeout: options.socketTimeoutMs ?? 60_000,
      disableFileAccess: true,
      disableUrlAccess: true,
    };
    const transport = nodemailer.createTransport({
      ...smtpOptions,
      // A newsletter sends thousands of mails: one connection reused, not one per mail.
      ...(options.pool ? { pool: true, maxConnections: 1, maxMessages: Number.POSITIVE_INFINITY } : {}),
    });
    // A visitor whose address has a non-ASCII local part is in Reply-To only (server/smtputf8.ts).
    let utf8Transport: ReturnType<typeof nodemailer.createTransport> | undefined;
    const transportFor = (mail: OutgoingMail) => {
      if (!mail.replyTo || !needsSmtpUtf8(mail.replyTo)) return transport;
      utf8Transport ??= nodemailer.createTransport({ ...smtpOptions, [SMTPUTF8_HEADERS]: true } as typeof smtpOptions);
      return utf8Transport;
    };
    return {
      kind: "smtp",
      async deliver(mail) {
        await transportFor(mail).sendMail(mailOptions(config, mail));
      },
      close() {
        transport.close();
        utf8Transport?.close();
      },
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  const folder = mailDir(config.dataDir);
  return {
    kind: "file",
    async deliver(mail) {
      const info = await transport.sendMail(mailOptions(config, mail));
      mkdirSync(folder, { recursive: true });
      const target = join(folder, emlFileName(mail.messageId));
      const temporary = `${target}.${process.pid}.tmp`;
      writeFileSync(temporary, info.message as Buffer);
      renameSync(temporary, target);
    },
    close() {
      transport.close();
    },
  };
}
