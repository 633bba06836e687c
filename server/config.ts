/**
 * The server's configuration, read once from the environment and validated at start (DESIGN §5).
 * A bad value stops the start with a message naming the variable, instead of a half-working server.
 */
import { randomBytes } from "node:crypto";
import { accessSync, chmodSync, constants, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { parseSiteUrl } from "../catalogue/site-url.ts";

const port = z.coerce
  .number({ message: "must be a number" })
  .int("must be a whole number")
  .min(0, "must be between 0 and 65535")
  .max(65535, "must be between 0 and 65535");

/**
 * Mails per minute when NEWSLETTER_RATE is unset: a pace small providers accept (many allow a few
 * hundred an hour on a starter plan), 1,000 subscribers in under 17 minutes.
 */
export const DEFAULT_NEWSLETTER_RATE = 60;

const environmentSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  /** Read as the build reads it, which bakes it into the prerendered pages (catalogue/site-url.ts). */
  SITE_URL: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const result = parseSiteUrl(value);
      if (result.ok) return result.origin;
      ctx.addIssue({ code: "custom", message: result.problem });
      return z.NEVER;
    }),
  DATA_DIR: z
    .string()
    .min(1)
    .default("./data")
    .transform((dir, context) => {
      const folder = resolve(dir);
      const problem = dataDirProblem(folder);
      if (problem) {
        context.addIssue({ code: "custom", message: `must be a folder the server can write (${folder} ${problem})` });
        return z.NEVER;
      }
      return folder;
    }),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, message: "must look like smtp://user:pass@host:587" })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  OWNER_EMAIL: z.email("must be an email address").optional(),
  MAIL_FROM: z.email("must be an email address").optional(),
  RATE_LIMIT: z.coerce.number({ message: "must be a number" }).int("must be a whole number").min(0).default(5),
  MESSAGE_RETENTION_DAYS: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(36_500, "must be at most 36500")
    .default(90),
  TRUST_PROXY: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number of proxies")
    .min(0, "must be 0 (no proxy) or more")
    .max(10, "must be at most 10")
    .default(0),
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1")
    .max(300, "must be at most 300")
    .default(20),
  MAX_CONNECTIONS: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(100_000, "must be at most 100000")
    .default(1000),
  /** Applied when the server is reached directly (TRUST_PROXY=0); behind proxies every peer is a proxy. */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(100_000, "must be at most 100000")
    .default(50),
  /**
   * Renders share the one JavaScript thread with the API: more at once only queue more work ahead
   * of it (under a flood of new searches the API's p99 was 41 ms with 1, 88 ms with 4), while 2
   * keeps a render going while another waits on compression.
   */
  RENDER_CONCURRENCY: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(64, "must be at most 64")
    .default(2),
  RENDER_CACHE_MB: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number of megabytes")
    .min(1, "must be at least 1")
    .max(4096, "must be at most 4096")
    .default(32),
  /** Signs the confirmation and unsubscribe links; long enough that it cannot be guessed. */
  SECRET_KEY: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -hex 32`)").optional(),
  /** Newsletter mails per minute, or "unlimited". */
  NEWSLETTER_RATE: z
    .union([
      z.literal("unlimited").transform(() => 0),
      z.coerce
        .number({ message: 'must be a number of mails per minute or "unlimited"' })
        .int("must be a whole number")
        .min(1, 'must be at least 1 (or "unlimited")'),
    ])
    .default(DEFAULT_NEWSLETTER_RATE),
  /** PostgreSQL shared by every instance; unset: the embedded SQLite file in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .transform((value, context) => {
      const problem = databaseUrlProblem(value);
      if (problem) {
        context.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }
      return value;
    })
    .optional(),
  NEWSLETTER_BATCH: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(1000, "must be at most 1000")
    .default(20),
});

export type Config = {
  port: number;
  host: string;
  siteUrl: string;
  dataDir: string;
  smtpUrl: string | undefined;
  ownerEmail: string;
  mailFrom: string;
  /** Submissions per IP per 10 minutes for each form endpoint; 0 turns the limit off. */
  rateLimit: number;
  /** Delivered contact messages are deleted this many days after delivery. */
  messageRetentionDays: number;
  /** Proxies in front of the server whose forwarding headers are believed (server/forwarded.ts). */
  trustProxy: number;
  /** A request (headers and body) must arrive within this many seconds (server/limits.ts). */
  requestTimeoutSeconds: number;
  /** Open connections at most; more are closed at once (server/limits.ts). */
  maxConnections: number;
  /** Open connections of one client address at most, when TRUST_PROXY is 0 (server/http/limits.ts). */
  maxConnectionsPerAddress: number;
  /** Server renders at once; one more gets a 503 with Retry-After (server/render-cache.ts). */
  renderConcurrency: number;
  /** Bytes of rendered filtered lists kept in memory. */
  renderCacheBytes: number;
  /** Signs confirmation and unsubscribe tokens: SECRET_KEY, else DATA_DIR/secret (generated once). */
  secretKey: string;
  /** Newsletter mails per minute; 0 means unlimited. */
  newsletterRate: number;
  /** How many newsletter deliveries a worker claims at once. */
  newsletterBatch: number;
  /** postgres://… when the data lives in PostgreSQL (several instances); undefined: SQLite in dataDir. */
  databaseUrl: string | undefined;
};

/** Why DATABASE_URL cannot name a PostgreSQL database, or undefined when it can. */
function databaseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must look like postgres://user:password@host:5432/database";
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    return `must start with postgres:// (PostgreSQL is the only shared database; leave it unset for SQLite in DATA_DIR)`;
  }
  if (!url.hostname && !url.searchParams.has("host"))
    return "must name the server: postgres://user:password@host:5432/database";
  return undefined;
}

/** The file that holds the generated secret when SECRET_KEY is not set. */
export const secretFile = (dataDir: string) => join(dataDir, "secret");

/**
 * The secret of DATA_DIR/secret, created on first use (readable by the owner only), so that
 * `npm start` needs no configuration and the links already mailed keep working after a restart.
 */
export function readOrCreateSecret(dataDir: string): string {
  const file = secretFile(dataDir);
  try {
    writeFileSync(file, `${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  chmodSync(file, 0o600);
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) {
    throw new ConfigError(
      `Invalid configuration:\n  ${file} must hold a secret of at least 32 characters (delete it to generate one)`,
    );
  }
  return secret;
}

/** Why `folder` cannot hold the database (it is created when missing), or undefined when it can. */
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
}

/** The owner's address from content/site.yaml is the default recipient and sender. */
export function readConfig(environment: NodeJS.ProcessEnv, defaults: { ownerEmail: string }): Config {
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = environmentSchema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${JSON.stringify(environment[name] ?? "")} ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const env = result.data;
  if (env.DATABASE_URL && !env.SECRET_KEY) {
    // Every instance must sign and check links with the same key; a file in each DATA_DIR would differ.
    throw new ConfigError(
      "Invalid configuration:\n  SECRET_KEY must be set when DATABASE_URL is (the same value on every instance, e.g. `openssl rand -hex 32`)",
    );
  }
  return {
    port: env.PORT,
    host: env.HOST,
    siteUrl: env.SITE_URL,
    dataDir: env.DATA_DIR,
    smtpUrl: env.SMTP_URL,
    ownerEmail: env.OWNER_EMAIL ?? defaults.ownerEmail,
    mailFrom: env.MAIL_FROM ?? env.OWNER_EMAIL ?? defaults.ownerEmail,
    rateLimit: env.RATE_LIMIT,
    messageRetentionDays: env.MESSAGE_RETENTION_DAYS,
    trustProxy: env.TRUST_PROXY,
    requestTimeoutSeconds: env.REQUEST_TIMEOUT_SECONDS,
    maxConnections: env.MAX_CONNECTIONS,
    maxConnectionsPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS,
    renderConcurrency: env.RENDER_CONCURRENCY,
    renderCacheBytes: env.RENDER_CACHE_MB * 1024 * 1024,
    secretKey: env.SECRET_KEY ?? readOrCreateSecret(env.DATA_DIR),
    newsletterRate: env.NEWSLETTER_RATE,
    newsletterBatch: env.NEWSLETTER_BATCH,
    databaseUrl: env.DATABASE_URL,
  };
}

const isLoopback = (host: string) => /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(host);

/**
 * What the owner should know at start although nothing is wrong enough to stop: a server others
 * can reach that still thinks its public address is the default (links, feeds and sitemap would
 * point at localhost, and forms posted from the public address pass only by their own origin).
 */
export function configWarnings(environment: NodeJS.ProcessEnv, config: Config): string[] {
  const warnings: string[] = [];
  if (!environment.SITE_URL && !isLoopback(config.host)) {
    warnings.push(
      `Warning: SITE_URL is not set, so canonical links, feeds and the sitemap point at ${config.siteUrl} although the server listens on ${config.host}. Set SITE_URL to the public address, e.g. SITE_URL=https://example.com (docs/deploy.md).`,
    );
  }
  return warnings;
}
