/**
 * SMTPUTF8 for a message whose headers hold an address with a non-ASCII local part while its
 * envelope is all ASCII: a contact message from `jösé@example.com` goes to the owner with the
 * visitor in Reply-To only. RFC 6532 allows a raw UTF-8 address in a header only in a
 * transaction that declared SMTPUTF8 (RFC 6531), and there is no ASCII spelling of such a local
 * part to fall back to. nodemailer 10 declares SMTPUTF8 only when the envelope needs it and has
 * no option for the headers, so a transport made with `SMTPUTF8_HEADERS` set adds the keyword
 * to its MAIL FROM whenever the server offers the extension. A server that does not offer it gets
 * the message as before (most accept 8-bit headers), rather than the owner losing it.
 *
 * This reaches into nodemailer's connection (pinned at 10.6.0); tests/server/mail-utf8.test.ts
 * checks on a real SMTP server that the keyword is sent, so an upgrade that moves it fails there.
 */
import SMTPConnection from "nodemailer/lib/smtp-connection";

/** The transport option that asks for SMTPUTF8 on every message it sends. */
export const SMTPUTF8_HEADERS = "smtpUtf8Headers";

/** Whether an address needs SMTPUTF8 to appear raw in a header: a non-ASCII local part. */
export function needsSmtpUtf8(address: string): boolean {
  const at = address.lastIndexOf("@");
  return /[\u0080-\u{10FFFF}]/u.test(at === -1 ? address : address.slice(0, at));
}

type Connection = {
  options: Record<string, unknown>;
  _supportedExtensions: string[];
  _usingSmtpUtf8: boolean;
  _sendCommand(command: string, ...rest: unknown[]): unknown;
  _setEnvelope(envelope: unknown, callback: unknown): unknown;
};

const prototype = SMTPConnection.prototype as unknown as Connection;
const setEnvelope = prototype._setEnvelope;
const sendCommand = prototype._sendCommand;

prototype._setEnvelope = function (this: Connection, envelope: unknown, callback: unknown) {
  if (!this.options[SMTPUTF8_HEADERS] || !this._supportedExtensions.includes("SMTPUTF8")) {
    return setEnvelope.call(this, envelope, callback);
  }
  // Setting the envelope sends MAIL FROM synchronously, first; the override lasts for that call only.
  this._sendCommand = function (this: Connection, command: string, ...rest: unknown[]) {
    if (!command.startsWith("MAIL FROM:") || / SMTPUTF8\b/.test(command))
      return sendCommand.call(this, command, ...rest);
    this._usingSmtpUtf8 = true;
    return sendCommand.call(this, `${command} SMTPUTF8`, ...rest);
  };
  try {
    return setEnvelope.call(this, envelope, callback);
  } finally {
    delete (this as Partial<Connection>)._sendCommand;
  }
};
