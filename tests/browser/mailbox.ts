/**
 * The mail the browser tests' SMTP server received (tests/browser/serve.ts files each one under
 * $TEST_DATA_DIR/received/), read back as a person would read their inbox.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "@playwright/test";
import { type ParsedMail, simpleParser } from "mailparser";

const receivedDir = () => join(process.env.TEST_DATA_DIR ?? "", "received");

const addressesOf = (mail: ParsedMail) =>
  [mail.to ?? []].flat().flatMap((group) => group.value.map((entry) => entry.address?.toLowerCase() ?? ""));

/** Every mail received so far for `email` (any letter case), oldest first. */
export async function mailsTo(email: string): Promise<ParsedMail[]> {
  const names = readdirSync(receivedDir()).sort();
  const mails = await Promise.all(names.map((name) => simpleParser(readFileSync(join(receivedDir(), name)))));
  return mails.filter((mail) => addressesOf(mail).includes(email.toLowerCase()));
}

/** Waits for the `count`-th mail to `email` and returns it. */
export async function waitForMail(email: string, count = 1): Promise<ParsedMail> {
  let mails: ParsedMail[] = [];
  await expect
    .poll(
      async () => {
        mails = await mailsTo(email);
        return mails.length;
      },
      { message: `mail number ${count} to ${email}`, timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return mails[count - 1] as ParsedMail;
}

/** The confirmation link of the first mail to `email` (the confirmation), once it has arrived. */
export async function confirmationLink(email: string): Promise<URL> {
  const mail = await waitForMail(email);
  const link = /https?:\/\/\S+\/updates\/confirm\?token=\S+/.exec(mail.text ?? "")?.[0];
  if (!link) throw new Error(`No confirmation link in the mail to ${email}:\n${mail.text}`);
  return new URL(link);
}
