/** A real SMTP server on 127.0.0.1 for tests and the benchmark: it records what it accepts. */
import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  raw: string;
  parsed: ParsedMail;
  /** `smtpUtf8`: the client declared SMTPUTF8 on MAIL FROM (RFC 6531). */
  envelope: { from: string; to: string[]; smtpUtf8: boolean };
};

export type SmtpRecorder = {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Answer the next n messages with an error: a temporary failure (451) unless another code is given. */
  failNext(count: number, responseCode?: number): void;
  /** While on, every MAIL FROM is answered `550 5.7.1 sender not allowed` (what a wrong MAIL_FROM gets). */
  refuseSender(refuse: boolean): void;
  /** With `holdAfter`: whether the held message has arrived (its sender is then inside DATA). */
  holding(): boolean;
  stop(): Promise<void>;
};

/**
 * A real SMTP server that records every message it accepts. With `acceptDelayMs`, it waits before
 * answering DATA, and a message whose client disconnected meanwhile is not accepted, exactly like
 * an SMTP server that never got to say 250. With `saveTo`, each accepted message is also filed
 * there as 0001.eml, 0002.eml … for a test in another process to read.
 */
export function startSmtp(
  options: {
    port?: number;
    acceptDelayMs?: number;
    saveTo?: string;
    /** Recipients refused at RCPT TO with this reply code (e.g. 550: no such mailbox). */
    rejectRecipients?: ReadonlyMap<string, number>;
    /** The message after this many accepted ones gets no answer until its client goes away (once). */
    holdAfter?: number;
    /** Leave SMTPUTF8 out of the extensions the server offers. */
    withoutSmtpUtf8?: boolean;
  } = {},
): Promise<SmtpRecorder> {
  const received: ReceivedMail[] = [];
  const closedSessions = new Set<string>();
  const sessionClosed = new Map<string, () => void>();
  let held = false;
  let failures = 0;
  let failureCode = 451;
  let senderRefused = false;
  const server = new SMTPServer({
    authOptional: true,
    // Replies carry the enhanced status code their error names, as "550 5.7.1 sender not allowed".
    hideENHANCEDSTATUSCODES: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 100,
    hideSMTPUTF8: options.withoutSmtpUtf8 ?? false,
    onMailFrom(_address, _session, callback) {
      if (senderRefused) return callback(Object.assign(new Error("5.7.1 sender not allowed"), { responseCode: 550 }));
      callback();
    },
    onRcptTo(address, _session, callback) {
      const code = options.rejectRecipients?.get(address.address.toLowerCase());
      if (code) return callback(Object.assign(new Error("No such mailbox"), { responseCode: code }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        if (options.acceptDelayMs) await new Promise((done) => setTimeout(done, options.acceptDelayMs));
        if (options.holdAfter !== undefined && !held && received.length >= options.holdAfter) {
          held = true;
          await new Promise<void>((done) => {
            if (closedSessions.has(session.id)) done();
            else sessionClosed.set(session.id, done);
          });
        }
        if (closedSessions.has(session.id)) return callback(new Error("client went away"));
        if (failures > 0) {
          failures--;
          const reason = failureCode >= 500 ? "Message refused" : "Try again later";
          const error = Object.assign(new Error(reason), { responseCode: failureCode });
          return callback(error);
        }
        const raw = Buffer.concat(chunks);
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          smtpUtf8: (session.envelope as { smtpUtf8?: boolean }).smtpUtf8 === true,
        };
        received.push({ raw: raw.toString("utf8"), parsed: await simpleParser(raw), envelope });
        if (options.saveTo) writeFileSync(join(options.saveTo, `${String(received.length).padStart(4, "0")}.eml`), raw);
        callback();
      });
    },
    onClose(session) {
      closedSessions.add(session.id);
      sessionClosed.get(session.id)?.();
    },
  });
  return new Promise((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      const port = (server.server.address() as AddressInfo).port;
      resolve({
        port,
        url: `smtp://127.0.0.1:${port}`,
        received,
        failNext(count, responseCode = 451) {
          failures = count;
          failureCode = responseCode;
        },
        refuseSender(refuse) {
          senderRefused = refuse;
        },
        holding: () => held,
        stop: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
