// The DKIM key and the DNS records that let receivers authenticate the site's mail (SPF, DKIM, DMARC).
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import type { Resolver } from "node:dns/promises";
import { mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { writeNewFile } from "../../catalogue/new-file.ts";
import type { Config, DkimKey } from "../config.ts";
import { messageIdDomainOf } from "./outbox.ts";

/** False when the file exists and `replace` was not asked for. */
export function writeDkimKey(file: string, selector: string, { replace = false } = {}): boolean {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const text = `DKIM selector: ${selector}\n${privateKey.export({ type: "pkcs8", format: "pem" })}`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  if (replace) rmSync(file, { force: true });
  return writeNewFile(file, text, 0o600);
}

type RecordKind = "SPF" | "DKIM" | "DMARC";
/** `value`: none for DKIM while there is no key. */
export type DnsRecord = { kind: RecordKind; name: string; value?: string };
type SenderSettings = Pick<Config, "mailFrom" | "ownerEmail" | "dkim">;

const publicKeyOf = (dkim: DkimKey) =>
  createPublicKey(dkim.privateKey).export({ type: "spki", format: "der" }).toString("base64");

/** For the From address's domain. */
export function senderRecords({ mailFrom, ownerEmail, dkim }: SenderSettings): DnsRecord[] {
  const domain = messageIdDomainOf(mailFrom);
  // Reports to another domain need that domain's consent (RFC 7489 7.1), so they are asked only for the same one.
  const reports = messageIdDomainOf(ownerEmail) === domain ? `; rua=mailto:${ownerEmail}` : "";
  return [
    { kind: "SPF", name: domain, value: "v=spf1 a mx ~all" },
    {
      kind: "DKIM",
      name: `${dkim?.selector ?? "<selector>"}._domainkey.${domain}`,
      value: dkim && `v=DKIM1; k=rsa; p=${publicKeyOf(dkim)}`,
    },
    { kind: "DMARC", name: `_dmarc.${domain}`, value: `v=DMARC1; p=none${reports}` },
  ];
}

/** A zone file's line: one TXT string holds at most 255 characters, so a longer value is split. */
export const zoneLine = ({ name, value = "" }: DnsRecord) =>
  `${name}. TXT ${value.replace(/.{1,255}/g, '"$&" ').trimEnd()}`;

async function txtRecords(resolver: Resolver, name: string): Promise<string[]> {
  try {
    return (await resolver.resolveTxt(name)).map((strings) => strings.join(""));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENODATA" || code === "ENOTFOUND") return [];
    throw new Error(`could not be looked up (${code ?? (error as Error).message})`);
  }
}

const tag = (record: string, name: string) =>
  new RegExp(`(?:^|;)\\s*${name}\\s*=([^;]*)`, "i").exec(record)?.[1]?.replace(/\s+/g, "");

export type RecordCheck = { kind: RecordKind; name: string; problem?: string; found?: string };

async function checkRecord(resolver: Resolver, { kind, name, value }: DnsRecord): Promise<RecordCheck> {
  const differs = (problem: string) => ({ kind, name, problem });
  if (value === undefined) return differs("no key to sign with: `npm run newsletter -- keys` makes one");
  const starts = { SPF: /^v=spf1(\s|$)/i, DKIM: /(^|;)\s*p\s*=/i, DMARC: /^v=DMARC1\s*(;|$)/i }[kind];
  const look = async () => (await txtRecords(resolver, name)).filter((record) => starts.test(record));
  let found: string[];
  try {
    found = await look();
    // A subdomain without a DMARC record of its own falls under its parent's (RFC 7489 6.6.3).
    while (kind === "DMARC" && found.length === 0 && /\..+\./.test(name.slice("_dmarc.".length))) {
      name = name.replace(/^_dmarc\.[^.]+/, "_dmarc");
      found = await look();
    }
  } catch (error) {
    return differs((error as Error).message);
  }
  const [record, ...others] = found;
  if (record === undefined) return differs(`missing: publish the ${kind} line of \`npm run newsletter -- dns\``);
  if (others.length > 0) return differs(`${found.length} records, where receivers take only one`);
  if (kind === "DKIM" && tag(record, "p") !== tag(value, "p")) {
    return differs("holds another key than the key file's: publish the DKIM line of `npm run newsletter -- dns`");
  }
  if (kind === "DMARC" && !/^(none|quarantine|reject)$/i.test(tag(record, "p") ?? "")) {
    return differs(`has no policy p=none, p=quarantine or p=reject: "${record}"`);
  }
  return { kind, name, found: record };
}

/** Looks each record up through `resolver` and says, record by record, what is missing or differs. */
export const checkSenderRecords = (resolver: Resolver, settings: SenderSettings) =>
  Promise.all(senderRecords(settings).map((record) => checkRecord(resolver, record)));
