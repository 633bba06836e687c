// A bad value stops the start with a message naming the variable, instead of a half-working server.
import { randomBytes } from "node:crypto";
import { accessSync, chmodSync, constants, mkdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { writeNewFile } from "../catalogue/new-file.ts";
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

const configSchema = ({ ownerEmail, ownerName }: OwnerDefaults) =>
  z
    .object({
      PORT: wholeNumber(0, 65535, { tooSmall: "must be between 0 and 65535" }).default(3000),
      HOST: z.string().min(1).default("127.0.0.1"),
      SITE_URL: z
        .string()
        .optional()
        .transform((value, context) => {
          const result = parseSiteUrl(value);
          if (result.ok) return result.origin;
          context.addIssue({ code: "custom", message: result.problem });
          return z.NEVER;
        }),
      DATA_DIR: z
        .string()
        .min(1)
        .default("./data")
        .transform((dir) => resolve(dir)),
      SMTP_URL: z.url({ protocol: /^smtps?$/, message: "must look like smtp://user:pass@host:587" }).optional(),
      OWNER_EMAIL: z.email("must be an email address").optional(),
      MAIL_FROM: z.email("must be an email address").optional(),
      RATE_LIMIT: wholeNumber(0, 1_000_000).default(5),
      MESSAGE_RETENTION_DAYS: wholeNumber(1, 36_500).default(90),
      TRUST_PROXY: wholeNumber(0, 10, { unit: "proxies", tooSmall: "must be 0 (no proxy) or more" }).default(0),
      REQUEST_TIMEOUT_SECONDS: wholeNumber(1, 300, { unit: "seconds" }).default(20),
      MAX_CONNECTIONS: wholeNumber(1, 100_000).default(1000),
      MAX_CONNECTIONS_PER_ADDRESS: wholeNumber(1, 100_000).default(100),
      // Reads rendered at once; writes are never counted (docs/decisions/writes-lane-renders-on-the-main-thread.md).
      RENDER_CONCURRENCY: wholeNumber(1, 64).default(2),
      RENDER_CACHE_MB: wholeNumber(1, 4096, { unit: "megabytes" }).default(32),
      SECRET_KEY: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -hex 32`)").optional(),
      NEWSLETTER_RATE: z
        .union([
          z.literal("unlimited").transform(() => 0),
          z.coerce
            .number({ message: 'must be a number of mails per minute or "unlimited"' })
            .int("must be a whole number")
            .min(1, 'must be at least 1 (or "unlimited")'),
        ])
        .default(DEFAULT_NEWSLETTER_RATE),
      NEWSLETTER_BATCH: wholeNumber(1, 1000).default(20),
      DATABASE_URL: z
        .string()
        .superRefine((value, context) => {
          const problem = databaseUrlProblem(value);
          if (problem) context.addIssue({ code: "custom", message: problem });
        })
        .optional(),
    })
    .transform((env) => ({
      port: env.PORT,
      host: env.HOST,
      siteUrl: env.SITE_URL,
      dataDir: env.DATA_DIR,
      /** Unset: each mail is written to DATA_DIR/mail/ as an .eml file, its text beside it as a .txt. */
      smtpUrl: env.SMTP_URL,
      ownerEmail: env.OWNER_EMAIL ?? ownerEmail,
      mailFrom: env.MAIL_FROM ?? env.OWNER_EMAIL ?? ownerEmail,
      ownerName: ownerName ?? new URL(env.SITE_URL).host,
      /** Submissions per IP per 10 minutes for each form endpoint; 0 turns the limit off. */
      rateLimit: env.RATE_LIMIT,
      messageRetentionDays: env.MESSAGE_RETENTION_DAYS,
      trustProxy: env.TRUST_PROXY,
      requestTimeoutSeconds: env.REQUEST_TIMEOUT_SECONDS,
      maxConnections: env.MAX_CONNECTIONS,
      maxConnectionsPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS,
      renderConcurrency: env.RENDER_CONCURRENCY,
      renderCacheBytes: env.RENDER_CACHE_MB * 1024 * 1024,
      secretKey: env.SECRET_KEY,
      newsletterRate: env.NEWSLETTER_RATE,
      newsletterBatch: env.NEWSLETTER_BATCH,
      databaseUrl: env.DATABASE_URL,
    }));

export type ParsedConfig = z.output<ReturnType<typeof configSchema>>;

export type Config = ParsedConfig & { secretKey: string };

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

export const secretFile = (dataDir: string) => join(dataDir, "secret");

/** Generated on first use so that `npm start` needs no configuration and mailed links survive a restart. */
export function readOrCreateSecret(dataDir: string): string {
  const file = secretFile(dataDir);
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
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = configSchema(defaults).safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
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
  return { ...config, secretKey: config.secretKey ?? readOrCreateSecret(config.dataDir) };
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
  return warnings;
}
