// A bad value stops the start with a message naming the variable, instead of a half-working server.
import { createPrivateKey, type KeyObject, randomBytes } from "node:crypto";
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { writeNewFile } from "../catalogue/new-file.ts";
import { orUndefined } from "../catalogue/present.ts";
import { parseSiteUrl } from "../catalogue/site-url.ts";

const wholeNumber = (min: number, max: number, { unit = "", tooSmall = `must be at least ${min}` } = {}) =>
  z.coerce
    .number({ message: "must be a number" })
    .int(`must be a whole number${unit ? ` of ${unit}` : ""}`)
    .min(min, tooSmall)
    .max(max, `must be at most ${max}`);

/** A pace small providers' starter plans accept: 1,000 subscribers in under 17 minutes. */
export const DEFAULT_NEWSLETTER_RATE = 60;

type OwnerDefaults = { ownerEmail: string; ownerName?: string };

// The variable RENDER_CACHE_MB is the setting renderCacheMb.
const settingOf = (variable: string) =>
  variable.toLowerCase().replace(/_(.)/g, (_, letter: string) => letter.toUpperCase());
const variableOf = (setting: string) => setting.replace(/[A-Z]/g, "_$&").toUpperCase();

const configSchema = ({ ownerEmail, ownerName }: OwnerDefaults) =>
  z
    .object({
      port: wholeNumber(0, 65535, { tooSmall: "must be between 0 and 65535" }).default(3000),
      host: z.string().min(1).default("127.0.0.1"),
      siteUrl: z
        .string()
        .optional()
        .transform((value, context) => {
          const result = parseSiteUrl(value);
          if (result.ok) return result.origin;
          context.addIssue({ code: "custom", message: result.problem });
          return z.NEVER;
        }),
      dataDir: z
        .string()
        .min(1)
        .default("./data")
        .transform((dir) => resolve(dir)),
      /** Unset: each mail is written to DATA_DIR/mail/ as an .eml file, its text beside it as a .txt. */
      smtpUrl: z.url({ protocol: /^smtps?$/, message: "must look like smtp://user:pass@host:587" }).optional(),
      ownerEmail: z.email("must be an email address").optional(),
      mailFrom: z.email("must be an email address").optional(),
      dkimKeyFile: z.string().min(1).optional(),
      /** The mailbox bounces and complaints arrive in, read every few minutes (docs/mail-deliverability.md). */
      bounceImapUrl: z
        .url({ protocol: /^imaps?$/, message: "must look like imap://user:password@host:143/INBOX (imaps:// for TLS)" })
        .optional(),
      /** Bounces and complaints posted by a sending service (docs/mail-deliverability.md); unset, its webhook is off. */
      postmarkWebhookSecret: z.string().min(16, "must be at least 16 characters").optional(),
      sesTopicArn: z
        .string()
        .regex(/^arn:aws:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/, "must be an SNS topic's ARN")
        .optional(),
      /** Tests only: SNS signing certificates are read from this file instead of Amazon's https address. */
      snsTestCertificateFile: z.string().min(1).optional(),
      /** Submissions per IP per 10 minutes for each form endpoint; 0 turns the limit off. */
      rateLimit: wholeNumber(0, 1_000_000).default(5),
      messageRetentionDays: wholeNumber(1, 36_500).default(90),
      trustProxy: wholeNumber(0, 10, { unit: "proxies", tooSmall: "must be 0 (no proxy) or more" }).default(0),
      requestTimeoutSeconds: wholeNumber(1, 300, { unit: "seconds" }).default(20),
      maxConnections: wholeNumber(1, 100_000).default(1000),
      maxConnectionsPerAddress: wholeNumber(1, 100_000).default(100),
      // Reads rendered at once; writes are never counted (docs/decisions/writes-lane-renders-on-the-main-thread.md).
      renderConcurrency: wholeNumber(1, 64).default(2),
      renderCacheMb: wholeNumber(1, 4096, { unit: "megabytes" }).default(32),
      secretKey: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -hex 32`)").optional(),
      newsletterRate: z
        .union([
          z.literal("unlimited").transform(() => 0),
          z.coerce
            .number({ message: 'must be a number of mails per minute or "unlimited"' })
            .int("must be a whole number")
            .min(1, 'must be at least 1 (or "unlimited")'),
        ])
        .default(DEFAULT_NEWSLETTER_RATE),
      newsletterBatch: wholeNumber(1, 1000).default(20),
      /** Tests and local trials only: fetch from and deliver to fediverse servers and webmention pages on loopback over plain http. */
      federationAllowLoopback: z
        .enum(["0", "1"], { message: "must be 1 (allow) or 0" })
        .default("0")
        .transform((value) => value === "1"),
      databaseUrl: z
        .string()
        .superRefine((value, context) => {
          const problem = databaseUrlProblem(value);
          if (problem) context.addIssue({ code: "custom", message: problem });
        })
        .optional(),
    })
    .transform(({ renderCacheMb, ...settings }) => ({
      ...settings,
      ownerEmail: settings.ownerEmail ?? ownerEmail,
      mailFrom: settings.mailFrom ?? settings.ownerEmail ?? ownerEmail,
      dkimKeyFile: settings.dkimKeyFile ? resolve(settings.dkimKeyFile) : join(settings.dataDir, "dkim.pem"),
      ownerName: ownerName ?? new URL(settings.siteUrl).host,
      renderCacheBytes: renderCacheMb * 1024 * 1024,
    }));

export type ParsedConfig = z.output<ReturnType<typeof configSchema>>;

export type Config = ParsedConfig & { secretKey: string; dkim?: DkimKey };

export type DkimKey = { selector: string; privateKey: KeyObject };

/** A DNS name under `_domainkey`: labels of letters, digits and inner hyphens. */
export const DKIM_SELECTOR = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)(?:\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*$/;

/** The key file of `npm run newsletter -- keys`: a line naming the selector, then the PEM key. No file: mail goes unsigned. */
export function readDkimKey(file: string): DkimKey | undefined {
  if (!existsSync(file)) return undefined;
  const text = orUndefined(() => readFileSync(file, "utf8")) ?? "";
  const selector = /^DKIM selector: *(.*?)\s*$/m.exec(text)?.[1] ?? "";
  const privateKey = orUndefined(() => createPrivateKey(text));
  if (!DKIM_SELECTOR.test(selector) || privateKey?.asymmetricKeyType !== "rsa") {
    throw new ConfigError(
      `DKIM_KEY_FILE ${file} must be readable, with a line "DKIM selector: <name>" and an RSA key in PEM form (or deleted: newsletter -- keys writes one)`,
    );
  }
  return { selector, privateKey };
}

function databaseUrlProblem(value: string): string | undefined {
  const url = URL.parse(value);
  if (!url) return "must look like postgres://user:password@host:5432/database";
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    return `must start with postgres:// (PostgreSQL is the only shared database; leave it unset for SQLite in DATA_DIR)`;
  }
  if (!url.hostname && !url.searchParams.has("host"))
    return "must name the server: postgres://user:password@host:5432/database";
  return undefined;
}

/** Generated on first use so that `npm start` needs no configuration and mailed links survive a restart. */
export function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, "secret");
  writeNewFile(file, `${randomBytes(32).toString("hex")}\n`, 0o600);
  chmodSync(file, 0o600);
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) {
    throw new ConfigError(`${file} must hold a secret of at least 32 characters (delete it to generate one)`);
  }
  return secret;
}

function dataDirProblem(folder: string): string | undefined {
  try {
    mkdirSync(folder, { recursive: true });
    if (!statSync(folder).isDirectory()) return "is a file";
    accessSync(folder, constants.R_OK | constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTDIR") return "is a file, or is inside one";
    if (code === "EACCES" || code === "EPERM" || code === "EROFS") return "is not writable";
    return `cannot be used: ${(error as Error).message}`;
  }
}

export class ConfigError extends Error {
  name = "ConfigError";
  constructor(...problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

export function parseConfig(environment: NodeJS.ProcessEnv, defaults: OwnerDefaults): ParsedConfig {
  const settings = Object.entries(environment)
    .filter(([name, value]) => /^[A-Z][A-Z0-9_]*$/.test(name) && value !== undefined && value !== "")
    .map(([name, value]) => [settingOf(name), value]);
  const result = configSchema(defaults).safeParse(Object.fromEntries(settings));
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = variableOf(String(issue.path[0]));
      return `${name}=${JSON.stringify(environment[name] ?? "")} ${issue.message}`;
    });
    throw new ConfigError(...problems);
  }
  if (result.data.databaseUrl && !result.data.secretKey) {
    // Every instance must sign and check links with the same key; a file in each DATA_DIR would differ.
    throw new ConfigError(
      "SECRET_KEY must be set when DATABASE_URL is (the same value on every instance, e.g. `openssl rand -hex 32`)",
    );
  }
  if (result.data.federationAllowLoopback && result.data.siteUrl.startsWith("https:")) {
    throw new ConfigError(
      "FEDERATION_ALLOW_LOOPBACK=1 is for local trials over http only: unset it when SITE_URL is https",
    );
  }
  return result.data;
}

export function readConfig(environment: NodeJS.ProcessEnv, defaults: OwnerDefaults): Config {
  const config = parseConfig(environment, defaults);
  const problem = dataDirProblem(config.dataDir);
  if (problem) {
    throw new ConfigError(
      `DATA_DIR=${JSON.stringify(config.dataDir)} must be a folder the server can write (${config.dataDir} ${problem})`,
    );
  }
  return {
    ...config,
    secretKey: config.secretKey ?? readOrCreateSecret(config.dataDir),
    dkim: readDkimKey(config.dkimKeyFile),
  };
}

const isLoopback = (host: string) => /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(host);

/** A reachable server still on the default SITE_URL would point links, feeds and the sitemap at localhost. */
export function configWarnings(environment: NodeJS.ProcessEnv, config: Config): string[] {
  const warnings: string[] = [];
  if (!environment.SITE_URL && !isLoopback(config.host)) {
    warnings.push(
      `Warning: SITE_URL is not set, so canonical links, feeds and the sitemap point at ${config.siteUrl} although the server listens on ${config.host}. Set SITE_URL to the public address, e.g. SITE_URL=https://example.com (docs/deploy.md).`,
    );
  }
  if (config.snsTestCertificateFile) {
    warnings.push(
      `Warning: SNS_TEST_CERTIFICATE_FILE is set, so SES notifications are checked against ${config.snsTestCertificateFile} instead of Amazon's certificate. Unset it outside tests.`,
    );
  }
  return warnings;
}
