/**
 * Signed mail and the owner's DNS, on real parts: `npm run newsletter -- keys | dns [--check]` as the
 * owner runs them, a real DNS server on loopback serving what `dns` printed, the backend's own
 * outbox and newsletter worker delivering to the real SMTP server of the tests, and mailauth, a
 * maintained verifier, checking DKIM and DMARC on what arrived.
 */
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { authenticate } from "mailauth";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadCatalogue } from "../../catalogue/disk.ts";
import { ConfigError, type DkimKey, readDkimKey } from "../../services/config.ts";
import { checkSenderRecords } from "../../services/mail/authentication.ts";
import { emlFileName } from "../../services/mail/transport.ts";
import { issueToSend } from "../../services/newsletter/issue.ts";
import { importSubscribers } from "../../services/newsletter/subscribers.ts";
import { freezeSend } from "../../services/newsletter/worker.ts";
import { type DnsServer, startDns, zoneOf } from "../support/dns.ts";
import {
  makeTempDir,
  OWNER,
  postJson,
  type ReceivedMail,
  SENDER,
  SITE_URL,
  type SmtpRecorder,
  serveApp,
  startSmtp,
  startTestBackend,
  TEST_SECRET,
  testConfig,
  waitFor,
} from "./helpers.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const fixtures = join(root, "tests/fixtures");
let data: ReturnType<typeof makeTempDir>;
let dns: DnsServer;
let smtp: SmtpRecorder;

beforeAll(async () => {
  data = makeTempDir("site-mail-auth-");
  dns = await startDns();
  smtp = await startSmtp();
  const made = await newsletter(["keys", "--selector", "s2"]);
  if (made.status !== 0) throw new Error(made.stderr);
});

afterAll(async () => {
  await dns.stop();
  await smtp.stop();
  data.remove();
});

type Run = { status: number | null; stdout: string; stderr: string };

/** The owner's command on the fixture content, with the test's DATA_DIR (the file's own by default) and sender. */
function newsletter(args: string[], dataDir = data.path): Promise<Run> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/newsletter.ts", ...args, "--root", fixtures], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      DATA_DIR: dataDir,
      SITE_URL,
      MAIL_FROM: SENDER,
      OWNER_EMAIL: OWNER,
      SECRET_KEY: TEST_SECRET,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run: Run = { status: null, stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (run.stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (run.stderr += chunk));
  return new Promise((done) => child.once("close", (status) => done({ ...run, status })));
}

const keyFile = (dataDir = data.path) => join(dataDir, "dkim.pem");
const checkRecords = () => newsletter(["dns", "--check", "--server", dns.address]);

function resolverOfTheTestDns() {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([dns.address]);
  return resolver;
}

describe("the owner's DKIM key", () => {
  let own: ReturnType<typeof makeTempDir>;
  beforeAll(() => {
    own = makeTempDir("site-mail-keys-");
  });
  afterAll(() => own.remove());
  const keys = (...args: string[]) => newsletter(["keys", ...args], own.path);

  test("a selector with a line break or outside DNS's letters is refused with one line, and no key is written; dns then prints SPF and DMARC and says the key is missing", async () => {
    for (const selector of ["s1\r\nBcc: someone@example.org", "-s1", "a".repeat(64)]) {
      const refused = await keys(`--selector=${selector}`);
      expect(refused.status).toBe(2);
      expect(refused.stderr.split("\n")[0]).toBe(
        `--selector takes letters, digits and hyphens (a DNS name), not ${JSON.stringify(selector)}.`,
      );
    }
    expect(() => statSync(keyFile(own.path))).toThrow();
    const withoutKey = await newsletter(["dns"], own.path);
    expect(withoutKey.status).toBe(1);
    expect(withoutKey.stdout).toBe(
      `example.com. TXT "v=spf1 a mx ~all"\n_dmarc.example.com. TXT "v=DMARC1; p=none; rua=mailto:${OWNER}"\n`,
    );
    expect(withoutKey.stderr).toBe("No DKIM key yet, so no DKIM record: `npm run newsletter -- keys` makes one.\n");
  });

  test("keys writes an RSA 2048 key readable by its owner only, and keeps it unless --replace", async () => {
    const made = await keys("--selector", "letters2026");
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain(
      `Wrote a DKIM key to ${keyFile(own.path)} (selector letters2026, readable by its owner only).`,
    );
    expect(statSync(keyFile(own.path)).mode & 0o777).toBe(0o600);
    const key = readDkimKey(keyFile(own.path));
    expect(key?.selector).toBe("letters2026");
    expect(key?.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);

    const kept = await keys();
    expect(kept.status).toBe(1);
    expect(kept.stderr).toBe(
      `${keyFile(own.path)} already holds a key (selector letters2026): --replace makes a new one.\n`,
    );
    expect(readDkimKey(keyFile(own.path))?.privateKey.equals(key?.privateKey as never)).toBe(true);

    const replaced = await keys("--replace", "--selector", "s2");
    expect(replaced.status, replaced.stderr).toBe(0);
    expect(statSync(keyFile(own.path)).mode & 0o777).toBe(0o600);
    const replacement = readDkimKey(keyFile(own.path));
    expect(replacement?.selector).toBe("s2");
    expect(replacement?.privateKey.equals(key?.privateKey as never)).toBe(false);
  });

  test("a key file without its selector line, without an RSA key or unreadable stops the configuration with one line", () => {
    const file = join(own.path, "broken.pem");
    const problem = `DKIM_KEY_FILE ${file} must be readable, with a line "DKIM selector: <name>" and an RSA key in PEM form`;
    const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" });
    writeFileSync(file, pem);
    expect(() => readDkimKey(file)).toThrow(ConfigError);
    expect(() => readDkimKey(file)).toThrow(problem);
    expect(() => readDkimKey(own.path)).toThrow(`DKIM_KEY_FILE ${own.path} must be readable`);
    writeFileSync(file, "DKIM selector: s1\nnot a key\n");
    expect(() => readDkimKey(file)).toThrow(problem);
    const ed25519 = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" });
    writeFileSync(file, `DKIM selector: s1\n${ed25519}`);
    expect(() => readDkimKey(file)).toThrow(problem);
    expect(readDkimKey(join(own.path, "no-such.pem"))).toBeUndefined();
  });
});

describe("the DNS records", () => {
  test("dns prints one zone line per record for the From domain, the DKIM key in strings of at most 255 characters", async () => {
    const printed = await newsletter(["dns"]);
    expect(printed.status, printed.stderr).toBe(0);
    const lines = printed.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('example.com. TXT "v=spf1 a mx ~all"');
    expect(lines[1]).toMatch(
      /^s2\._domainkey\.example\.com\. TXT "v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+" "[A-Za-z0-9+/=]+"$/,
    );
    expect(lines[2]).toBe(`_dmarc.example.com. TXT "v=DMARC1; p=none; rua=mailto:${OWNER}"`);
    const strings = [...(lines[1] ?? "").matchAll(/"([^"]*)"/g)].map(([, text = ""]) => text);
    expect(strings.map((text) => text.length)).toEqual([255, expect.any(Number)]);
    expect(Math.max(...strings.map((text) => text.length))).toBeLessThanOrEqual(255);
  });

  test("dns --check names each record that is missing, duplicated or holds another key, and passes once they are right", async () => {
    const printed = zoneOf((await newsletter(["dns"])).stdout);
    dns.zone.clear();
    const missing = await checkRecords();
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe(
      [
        "SPF example.com: missing: publish the SPF line of `npm run newsletter -- dns`",
        "DKIM s2._domainkey.example.com: missing: publish the DKIM line of `npm run newsletter -- dns`",
        "DMARC _dmarc.example.com: missing: publish the DMARC line of `npm run newsletter -- dns`",
        "",
      ].join("\n"),
    );

    const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .publicKey.export({ type: "spki", format: "der" })
      .toString("base64");
    dns.zone.set("example.com", [["v=spf1 a mx ~all"], ["v=spf1 include:_spf.example.net ~all"]]);
    dns.zone.set("s2._domainkey.example.com", [["v=DKIM1; k=rsa; p=", otherKey.slice(0, 255), otherKey.slice(255)]]);
    dns.zone.set("_dmarc.example.com", [["v=DMARC1; rua=mailto:owner@example.com"]]);
    const wrong = await checkRecords();
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toContain("SPF example.com: 2 records, where receivers take only one");
    expect(wrong.stdout).toContain(
      "DKIM s2._domainkey.example.com: holds another key than the key file's: publish the DKIM line of `npm run newsletter -- dns`",
    );
    expect(wrong.stdout).toContain(
      'DMARC _dmarc.example.com: has no policy p=none, p=quarantine or p=reject: "v=DMARC1; rua=mailto:owner@example.com"',
    );

    for (const [name, records] of printed) dns.zone.set(name, records);
    dns.zone.set("unrelated.example.com", [["v=spf1 -all"]]);
    const right = await checkRecords();
    expect(right.stderr).toBe("");
    expect(right.status).toBe(0);
    expect(right.stdout).toMatch(/^SPF example\.com: ok, "v=spf1 a mx ~all"\n/);
    expect(right.stdout).toMatch(/\nDKIM s2\._domainkey\.example\.com: ok, "v=DKIM1; k=rsa; p=[^"]+"\n/);
    expect(right.stdout).toContain(`DMARC _dmarc.example.com: ok, "v=DMARC1; p=none; rua=mailto:${OWNER}"`);
  });

  test("a From address on a subdomain without a DMARC record of its own falls under its parent's; without a key the check names the missing key", async () => {
    dns.zone.clear();
    dns.zone.set("_dmarc.example.com", [["v=DMARC1; p=quarantine; sp=none"]]);
    const settings = { mailFrom: "news@letters.example.com", ownerEmail: OWNER, dkim: readDkimKey(keyFile()) };
    const checks = await checkSenderRecords(resolverOfTheTestDns(), settings);
    expect(checks.find((check) => check.kind === "DMARC")).toEqual({
      kind: "DMARC",
      name: "_dmarc.example.com",
      found: "v=DMARC1; p=quarantine; sp=none",
    });
    dns.zone.set("_dmarc.letters.example.com", [["v=DMARC1; p=reject"]]);
    const own = await checkSenderRecords(resolverOfTheTestDns(), { ...settings, dkim: undefined });
    expect(own.find((check) => check.kind === "DMARC")).toMatchObject({ name: "_dmarc.letters.example.com" });
    expect(own.find((check) => check.kind === "DKIM")).toEqual({
      kind: "DKIM",
      name: "<selector>._domainkey.letters.example.com",
      problem: "no key to sign with: `npm run newsletter -- keys` makes one",
    });
  });

  test("a DNS server that does not answer is named for each record, and --server takes only an address", async () => {
    const silent = await newsletter(["dns", "--check", "--server", "127.0.0.1:9"]);
    expect(silent.status).toBe(1);
    expect(silent.stdout).toMatch(/^SPF example\.com: could not be looked up \(E[A-Z]+\)$/m);
    const bad = await newsletter(["dns", "--check", "--server", "dns.example.com"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.split("\n")[0]).toBe(
      "--server takes an IP address, with :port when not 53 (e.g. 1.1.1.1 or [::1]:5353).",
    );
  });
});

describe("signed mail", () => {
  const issue = (() => {
    const catalogue = loadCatalogue(fixtures);
    const first = catalogue.updates.find((update) => update.slug === "first-issue");
    if (!first) throw new Error("tests/fixtures/content/updates/first-issue.md is missing");
    return issueToSend(first, catalogue.site.name, SITE_URL);
  })();

  /** A confirmation, a contact message and a newsletter issue, each the way the site sends it. */
  async function mailEachKind(dataDir: string, dkim: DkimKey | undefined) {
    smtp.received.length = 0;
    const backend = await startTestBackend(testConfig(dataDir, { smtpUrl: smtp.url, dkim }), {
      newsletter: { baseDelayMs: 50, maxDelayMs: 400, leaseMs: 2000, pollIntervalMs: 50 },
    });
    const served = await serveApp(backend.api);
    try {
      expect((await postJson(`${served.url}/api/user`, { email: "new@example.org" })).status).toBe(201);
      const letter = { email: "reader@example.org", subject: "About your notes", body: "Thank you." };
      expect((await postJson(`${served.url}/api/email`, letter)).status).toBe(202);
      expect(await importSubscribers(backend.database.db, "email\nsubscriber@example.org\n")).toMatchObject({
        ok: true,
      });
      await freezeSend(backend.database.db, issue, { messageIdDomain: "example.com", again: false });
      backend.newsletter.nudge();
      await waitFor(() => smtp.received.length >= 3 || undefined, { what: "three mails" });
      const to = (address: string) => smtp.received.find((mail) => mail.envelope.to.includes(address)) as ReceivedMail;
      return { confirmation: to("new@example.org"), contact: to(OWNER), issue: to("subscriber@example.org") };
    } finally {
      await served.close();
      await backend.close();
    }
  }

  const verify = (mail: ReceivedMail) =>
    authenticate(mail.raw, {
      ip: "127.0.0.1",
      helo: "localhost",
      sender: mail.envelope.from,
      mta: "mx.example.org",
      disableArc: true,
      disableBimi: true,
      resolver: (name, type) => resolverOfTheTestDns().resolve(name, type) as Promise<string[][]>,
    });

  test("a confirmation, a contact message and an issue each pass DKIM and DMARC against the records dns printed", async () => {
    dns.zone.clear();
    for (const [name, records] of zoneOf((await newsletter(["dns"])).stdout)) dns.zone.set(name, records);
    const dataDir = makeTempDir("site-mail-signed-");
    try {
      const mails = await mailEachKind(dataDir.path, readDkimKey(keyFile()));
      for (const [kind, mail] of Object.entries(mails)) {
        const { dkim, dmarc } = await verify(mail);
        const [signature] = dkim.results;
        expect(dkim.results, kind).toHaveLength(1);
        expect(signature?.status.result, kind).toBe("pass");
        expect(signature?.signingDomain).toBe("example.com");
        expect(signature?.selector).toBe("s2");
        expect(signature?.status.aligned).toBe("example.com");
        expect(dmarc, kind).toMatchObject({ status: { result: "pass" } });
        const signed = signature?.signingHeaders?.keys.toLowerCase().split(": ") ?? [];
        expect(signed, kind).toEqual(expect.arrayContaining(["from", "to", "subject", "date", "message-id"]));
        if (kind === "issue") {
          expect(signed).toEqual(expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post"]));
        }
      }
      const forged = mails.issue.raw.replace(
        /^List-Unsubscribe:\s*<[^>]+>/im,
        "List-Unsubscribe: <https://evil.example/>",
      );
      expect(forged).not.toBe(mails.issue.raw);
      const [broken] = (await verify({ ...mails.issue, raw: forged })).dkim.results;
      expect(broken?.status.result).toBe("fail");
    } finally {
      dataDir.remove();
    }
  });

  test("without a key every mail still goes out, unsigned", async () => {
    const dataDir = makeTempDir("site-mail-unsigned-");
    try {
      const mails = await mailEachKind(dataDir.path, undefined);
      for (const mail of Object.values(mails)) {
        expect(mail.raw).not.toMatch(/^DKIM-Signature:/im);
        expect(mail.parsed.text).toBeTruthy();
      }
    } finally {
      dataDir.remove();
    }
  });

  test("without SMTP the .eml file written for the owner is signed too", async () => {
    const dataDir = makeTempDir("site-mail-file-");
    const backend = await startTestBackend(testConfig(dataDir.path, { dkim: readDkimKey(keyFile()) }));
    try {
      const { messageId } = await backend.outbox.enqueue({
        email: "reader@example.org",
        subject: "Hi",
        body: "Hello.",
      });
      const eml = join(dataDir.path, "mail", emlFileName(messageId));
      const raw = await waitFor(() => existsSync(eml) && readFileSync(eml, "utf8"), { what: "the .eml file" });
      expect(raw).toMatch(
        /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=example.com;\s+q=dns\/txt; s=s2;/m,
      );
    } finally {
      await backend.close();
      dataDir.remove();
    }
  });
});
