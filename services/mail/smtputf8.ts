// RFC 6532 allows a raw UTF-8 address in a header only after SMTPUTF8 was declared, and nodemailer declares it
// only when the envelope needs it. This reaches into nodemailer 10.6.0's connection; tests/server/mail-utf8.test.ts
// fails if an upgrade moves it.
import SMTPConnection from "nodemailer/lib/smtp-connection";

export const SMTPUTF8_HEADERS = "smtpUtf8Headers";

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
