/**
 * The server's configuration: one zod schema reads the environment and gives the `Config` its
 * type. Parsing has no side effects; `prepareDataDir` then makes the data folder and the generated
 * secret. A bad value stops the start with a message naming the variable, instead of a
 * half-working server.
 */
import { randomBytes } from "node:crypto";
import { accessSync, chmodSync, constants, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { parseSiteUrl } from "../catalogue/site-url.ts";

/** A whole number from `min` to `max`; `unit` names what it counts, for the messages. */
const wholeNumber = (min: number, max: number, { unit = "", tooSmall = `must be at least ${min}` } = {}) =>
  z.coerce
    .number({ message: "must be a number" })
    .int(`must be a whole number${unit ? ` of ${unit}` : ""}`)
    .min(min, tooSmall)
    .max(max, `must be at most ${max}`);

/**
 * Mails per minute when NEWSLETTER_RATE is unset: a pace small providers accept (many allow a few
 * hundred an hour on a starter plan), 1,000 subscribers in under 17 minutes.
 */
export const DEFAULT_NEWSLETTER_RATE = 60;

/** What content/site.yaml says of the owner: the default recipient and sender, and the sender's name. */
type OwnerDefaults = { ownerEmail: string; ownerName?: string };

/** The environment's variables and the configuration they make, for the owner `defaults` names. */
const configSchema = ({ ownerEmail, ownerName }: OwnerDefaults) =>
  z
    .object({
      PORT: wholeNumber(0, 65535, { tooSmall: "must be between 0 and 65535" }).default(3000),
      HOST: z.string().min(1).default("127.0.0.1"),
      /** Read as the build reads it, which bakes it into the prerendered pages (catalogue/site-url.ts). */
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
      /**
       * Worker threads rendering lists and searches (server/http/render-pool.ts), and so the renders
       * at once: on 2 cores, 2 leave the main thread its share (docs/decisions/renders-in-worker-threads.md).
       */
      RENDER_CONCURRENCY: wholeNumber(1, 64).default(2),
      RENDER_CACHE_MB: wholeNumber(1, 4096, { unit: "megabytes" }).default(32),
      /** Signs the confirmation and unsubscribe links; long enough that it cannot be guessed. */
      SECRET_KEY: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -hex 32`)").optional(),
      /** Newsletter mails per minute, or "unlimited" (0). */
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
    })
    .transform((env) => ({
      port: env.PORT,
      host: env.HOST,
      siteUrl: env.SITE_URL,
      dataDir: env.DATA_DIR,
      /** Unset: each mail is written to DATA_DIR/mail/ as an .eml file. */
      smtpUrl: env.SMTP_URL,
      /** The recipient of contact messages: OWNER_EMAIL, else the owner's address in content/site.yaml. */
      ownerEmail: env.OWNER_EMAIL ?? ownerEmail,
      mailFrom: env.MAIL_FROM ?? env.OWNER_EMAIL ?? ownerEmail,
      /** The sender's name on the site's mail, and whom the confirmation mail names (the site's host when unknown). */
      ownerName: ownerName ?? new URL(env.SITE_URL).host,
      /** Submissions per IP per 10 minutes for each form endpoint; 0 turns the limit off. */
      rateLimit: env.RATE_LIMIT,
      /** Delivered contact messages are deleted this many days after delivery. */
      messageRetentionDays: env.MESSAGE_RETENTION_DAYS,
      /** Proxies in front of the server whose forwarding headers are believed (server/http/forwarded.ts). */
      trustProxy: env.TRUST_PROXY,
      /** A request (headers and body) must arrive within this many seconds (server/http/limits.ts). */
      requestTimeoutSeconds: env.REQUEST_TIMEOUT_SECONDS,
      /** Open connections at most; more are closed at once (server/http/limits.ts). */
      maxConnections: env.MAX_CONNECTIONS,
      /** Open connections of one client address at most, applied when TRUST_PROXY is 0 (server/http/limits.ts). */
      maxConnectionsPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS,
      /** Server renders at once; one more gets a 503 with Retry-After (server/http/render-cache.ts). */
      renderConcurrency: env.RENDER_CONCURRENCY,
      /** Bytes of rendered filtered lists kept in memory. */
      renderCacheBytes: env.RENDER_CACHE_MB * 1024 * 1024,
      /** SECRET_KEY; when unset, `prepareDataDir` reads (or makes) DATA_DIR/secret. */
      secretKey: env.SECRET_KEY,
      /** Newsletter mails per minute; 0 means unlimited. */
      newsletterRate: env.NEWSLETTER_RATE,
      /** How many newsletter deliveries a worker claims at once. */
      newsletterBatch: env.NEWSLETTER_BATCH,
      /** postgres://… when the data lives in PostgreSQL (several instances); undefined: SQLite in dataDir. */
      databaseUrl: env.DATABASE_URL,
    }));

/** The configuration as the environment gives it: the secret may still be DATA_DIR's to make. */
export type ParsedConfig = z.output<ReturnType<typeof configSchema>>;

/** The configuration the server runs with: the data folder exists and the secret is known. */
export type Config = ParsedConfig & { secretKey: string };

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

/** Reads the environment; touches nothing. The owner's address from content/site.yaml is the default recipient and sender. */
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
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  if (result.data.databaseUrl && !result.data.secretKey) {
    // Every instance must sign and check links with the same key; a file in each DATA_DIR would differ.
    throw new ConfigError(
      "Invalid configuration:\n  SECRET_KEY must be set when DATABASE_URL is (the same value on every instance, e.g. `openssl rand -hex 32`)",
    );
  }
  return result.data;
}

/**
 * The one place the configuration touches the disk: creates DATA_DIR when missing (and checks
 * that the server can write it), then reads or makes the generated secret unless SECRET_KEY is set.
 */
export function prepareDataDir(config: ParsedConfig): Config {
  const problem = dataDirProblem(config.dataDir);
  if (problem) {
    throw new ConfigError(
      `Invalid configuration:\n  DATA_DIR=${JSON.stringify(config.dataDir)} must be a folder the server can write (${config.dataDir} ${problem})`,
    );
  }
  return { ...config, secretKey: config.secretKey ?? readOrCreateSecret(config.dataDir) };
}

/** The configuration of `environment`, its data folder ready: `parseConfig`, then `prepareDataDir`. */
export const readConfig = (environment: NodeJS.ProcessEnv, defaults: OwnerDefaults): Config =>
  prepareDataDir(parseConfig(environment, defaults));

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
