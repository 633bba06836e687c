// Line breaks are stripped from the subject here once more so that no CR/LF can reach a header, whatever the caller did.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";
import { messageIdDomainOf } from "./outbox.ts";
import { needsSmtpUtf8, SMTPUTF8_HEADERS } from "./smtputf8.ts";

export type OutgoingMail = {
  messageId: string;
  date: Date;
  to?: string;
  replyTo?: string;
  fromName?: string;
  subject: string;
  text: string;
  html?: string;
  /** Names and values are the site's own, never a visitor's. */
  headers?: Record<string, string>;
  /** Makes the envelope sender bounces+<token>@ MAIL_FROM's domain, where bounces are read (VERP). */
  returnPathToken?: string;
};

export type Mailer = ReturnType<typeof createMailer>;

type MailerConfig = Pick<Config, "smtpUrl" | "dataDir" | "ownerEmail" | "mailFrom" | "ownerName" | "dkim">;

// nodemailer's default list leaves out List-Unsubscribe-Post, which one-click unsubscribe needs signed (RFC 8058).
const SIGNED_HEADERS =
  "From:To:Subject:Date:Message-ID:List-Unsubscribe:List-Unsubscribe-Post:Reply-To:MIME-Version:Content-Type:Content-Transfer-Encoding";

/** Signed for the From address's own domain, so DKIM is aligned with it (DMARC). */
const signingOf = ({ dkim, mailFrom }: MailerConfig) =>
  dkim && {
    dkim: {
      domainName: messageIdDomainOf(mailFrom),
      keySelector: dkim.selector,
      privateKey: dkim.privateKey,
      headerFieldNames: SIGNED_HEADERS,
    },
  };

export const returnPath = (mailFrom: string, token: string) => `bounces+${token}@${messageIdDomainOf(mailFrom)}`;

export const emlFileName = (messageId: string) =>
  `${messageId.replace(/^<|>$/g, "").replace(/[^A-Za-z0-9._@-]/g, "_")}.eml`;

function mailOptions(config: MailerConfig, mail: OutgoingMail) {
  const to = mail.to ?? config.ownerEmail;
  return {
    from: { name: mail.fromName ?? config.ownerName, address: config.mailFrom },
    to: { name: "", address: to },
    ...(mail.replyTo ? { replyTo: { name: "", address: mail.replyTo } } : {}),
    subject: mail.subject.replace(/[\r\n\u0085\u2028\u2029]+/g, " "),
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    ...(mail.headers ? { headers: mail.headers } : {}),
    messageId: mail.messageId,
    date: mail.date,
    // The envelope never names a visitor's Reply-To.
    envelope: { from: mail.returnPathToken ? returnPath(config.mailFrom, mail.returnPathToken) : config.mailFrom, to },
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

function writeAtomically(path: string, data: string | Buffer) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, path);
}

export function createMailer(config: MailerConfig, { pool = false } = {}) {
  if (config.smtpUrl) {
    const smtpOptions = {
      url: config.smtpUrl,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      disableFileAccess: true,
      disableUrlAccess: true,
      ...signingOf(config),
    };
    const transport = nodemailer.createTransport({
      ...smtpOptions,
      ...(pool ? { pool: true, maxConnections: 1, maxMessages: Number.POSITIVE_INFINITY } : {}),
    });
    // A visitor's non-ASCII local part appears only in Reply-To (smtputf8.ts).
    let utf8Transport: ReturnType<typeof nodemailer.createTransport> | undefined;
    const transportFor = (mail: OutgoingMail) => {
      if (!mail.replyTo || !needsSmtpUtf8(mail.replyTo)) return transport;
      utf8Transport ??= nodemailer.createTransport({ ...smtpOptions, [SMTPUTF8_HEADERS]: true } as typeof smtpOptions);
      return utf8Transport;
    };
    return {
      async deliver(mail: OutgoingMail) {
        await transportFor(mail).sendMail(mailOptions(config, mail));
      },
      close() {
        transport.close();
        utf8Transport?.close();
      },
    };
  }

  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
    ...signingOf(config),
  });
  const folder = join(config.dataDir, "mail");
  return {
    async deliver(mail: OutgoingMail) {
      const options = mailOptions(config, mail);
      const info = await transport.sendMail(options);
      mkdirSync(folder, { recursive: true });
      const eml = join(folder, emlFileName(mail.messageId));
      // The .eml's text is quoted-printable, which breaks long links: the copy beside it is the text as written.
      writeAtomically(
        eml.replace(/\.eml$/, ".txt"),
        `To: ${options.to.address}\nSubject: ${options.subject}\n\n${mail.text}`,
      );
      writeAtomically(eml, info.message as Buffer);
    },
    close() {
      transport.close();
    },
  };
}
