// The DKIM key and the DNS records that let receivers authenticate the site's mail (SPF, DKIM, DMARC).
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import type { Resolver } from "node:dns/promises";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeNewFile } from "../../catalogue/new-file.ts";
import type { Config, DkimKey } from "../config.ts";
import { messageIdDomainOf } from "./outbox.ts";

/** A new selector each day, so a replaced key gets a DNS name of its own while mail signed with the old one is in transit. */
export const selectorOfToday = () => `s${new Date().toISOString().slice(0, 10).replaceAll("-", "")}`;

/** False when the file exists and `replace` was not asked for. */
export function writeDkimKey(file: string, selector: string, { replace = false } = {}): boolean {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const text = `DKIM selector: ${selector}\n${privateKey.export({ type: "pkcs8", format: "pem" })}`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  if (!replace) return writeNewFile(file, text, 0o600);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
  return true;
}

type RecordKind = "SPF" | "DKIM" | "DMARC";
export type DnsRecord = { kind: RecordKind; name: string; value: string };
type SenderSettings = Pick<Config, "mailFrom" | "ownerEmail" | "dkim">;

const publicKeyOf = (dkim: DkimKey) =>
  createPublicKey(dkim.privateKey).export({ type: "spki", format: "der" }).toString("base64");

/** For the From address's domain; the DKIM record only once there is a key. */
export function senderRecords({ mailFrom, ownerEmail, dkim }: SenderSettings): DnsRecord[] {
  const domain = messageIdDomainOf(mailFrom);
  // Reports to another domain need that domain's consent (RFC 7489 7.1), so they are asked only for the same one.
  const reports = messageIdDomainOf(ownerEmail) === domain ? `; rua=mailto:${ownerEmail}` : "";
  const dkimRecord = dkim && {
    kind: "DKIM" as const,
    name: `${dkim.selector}._domainkey.${domain}`,
    value: `v=DKIM1; k=rsa; p=${publicKeyOf(dkim)}`,
  };
  return [
    { kind: "SPF", name: domain, value: "v=spf1 a mx ~all" },
    ...(dkimRecord ? [dkimRecord] : []),
    { kind: "DMARC", name: `_dmarc.${domain}`, value: `v=DMARC1; p=none${reports}` },
  ];
}

/** A zone file's line: one TXT string holds at most 255 characters, so a longer value is split. */
export const zoneLine = ({ name, value }: DnsRecord) => `${name}. TXT ${value.replace(/.{1,255}/g, '"$&" ').trimEnd()}`;

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

async function checkRecord(resolver: Resolver, expected: DnsRecord): Promise<RecordCheck> {
  const { kind } = expected;
  const look = async (name: string, starts: RegExp) => (await txtRecords(resolver, name)).filter((r) => starts.test(r));
  let name = expected.name;
  let found: string[];
  if (kind === "DMARC") {
    // A subdomain without a record of its own falls under its parent's (RFC 7489 6.6.3).
    const domain = name.slice("_dmarc.".length);
    for (let at = domain; ; at = at.slice(at.indexOf(".") + 1)) {
      name = `_dmarc.${at}`;
      found = await look(name, /^v=DMARC1\s*(;|$)/i);
      if (found.length > 0 || !at.slice(at.indexOf(".") + 1).includes(".")) break;
    }
  } else found = await look(name, kind === "SPF" ? /^v=spf1(\s|$)/i : /(^|;)\s*p\s*=/i);
  const [record, ...others] = found;
  const differs = (problem: string) => ({ kind, name, problem });
  if (record === undefined) return differs(`missing: publish the ${kind} line of \`npm run newsletter -- dns\``);
  if (others.length > 0) return differs(`${found.length} records, where receivers take only one`);
  if (kind === "DKIM" && tag(record, "p") !== tag(expected.value, "p")) {
    return differs("holds another key than the key file's: publish the DKIM line of `npm run newsletter -- dns`");
  }
  if (kind === "DMARC" && !/^(none|quarantine|reject)$/i.test(tag(record, "p") ?? "")) {
    return differs(`has no policy p=none, p=quarantine or p=reject: "${record}"`);
  }
  return { kind, name, found: record };
}

/** Looks each record up through `resolver` and says, record by record, what is missing or differs. */
export async function checkSenderRecords(resolver: Resolver, settings: SenderSettings): Promise<RecordCheck[]> {
  const checks = await Promise.all(
    senderRecords(settings).map(({ kind, name, value }) =>
      checkRecord(resolver, { kind, name, value }).catch((error: Error) => ({ kind, name, problem: error.message })),
    ),
  );
  if (!settings.dkim) {
    const name = `<selector>._domainkey.${messageIdDomainOf(settings.mailFrom)}`;
    checks.splice(1, 0, { kind: "DKIM", name, problem: "no key to sign with: `npm run newsletter -- keys` makes one" });
  }
  return checks;
}
