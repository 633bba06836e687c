/**
 * Real parts for the server tests: a fresh temporary data folder, the database of the vitest
 * project (SQLite in that folder, or a fresh database on the real PostgreSQL server of
 * tests/support/postgres.ts), the real SMTP recorder of tests/support/smtp.ts, the real Hono app
 * served on a free port, and a bounded polling helper. No mocks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import type { Context, Hono } from "hono";
import { inject } from "vitest";
import { createApi } from "../../host/api.ts";
import { clientAddressReader, requestOriginReader, socketAddress } from "../../host/forwarded.ts";
import { type Backend, type BackendOptions, startBackend } from "../../services/backend.ts";
import type { Config } from "../../services/config.ts";
import { connectDatabase, type Database, type SqliteDatabase } from "../../services/db/database.ts";
import { createTestDatabase } from "../support/postgres.ts";

export const OWNER = "owner@example.com";
export const SENDER = "site@example.com";
export const SITE_URL = "http://localhost:3000";
export const TEST_SECRET = "test-secret-0123456789abcdef0123456789abcdef";

/** What a server process the tests start inherits: nothing of this shell but PATH and HOME, and a free port of 127.0.0.1. */
export function childProcessEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0", HOST: "127.0.0.1" };
}

/** A new empty folder under the system temp folder; `remove()` deletes it. */
export function makeTempDir(prefix = "site-test-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: "127.0.0.1",
    siteUrl: SITE_URL,
    dataDir,
    smtpUrl: undefined,
    ownerEmail: OWNER,
    mailFrom: SENDER,
    dkimKeyFile: join(dataDir, "dkim.pem"),
    ownerName: "Test Owner",
    rateLimit: 0,
    messageRetentionDays: 90,
    trustProxy: 0,
    requestTimeoutSeconds: 20,
    maxConnections: 1000,
    maxConnectionsPerAddress: 100,
    renderConcurrency: 2,
    renderCacheBytes: 32 * 1024 * 1024,
    secretKey: TEST_SECRET,
    newsletterRate: 0,
    newsletterBatch: 20,
    databaseUrl: undefined,
    federationAllowLoopback: false,
    ...overrides,
  };
}

export type BackendKind = "sqlite" | "postgres";

/** The engine under test: the "postgres" project of vitest.config.ts sets TEST_BACKEND. */
export const BACKEND: BackendKind = process.env.TEST_BACKEND === "postgres" ? "postgres" : "sqlite";

/**
 * The config with the project's database: on PostgreSQL a new empty database (unless the
 * overrides name one), on SQLite the file in `dataDir`.
 */
export async function databaseConfig(dataDir: string, overrides: Partial<Config> = {}): Promise<Config> {
  const config = testConfig(dataDir, overrides);
  if (BACKEND === "postgres" && !config.databaseUrl) {
    config.databaseUrl = await createTestDatabase(inject("postgresAdminUrl"));
  }
  return config;
}

/** Opens (migrating) the database a config names; each call is one more connection to the same data. */
export function openTestDatabase(config: Config): Promise<Database> {
  return connectDatabase(config);
}

/** The SQLite handle of a backend, for the suites that run on SQLite only and read rows with plain SQL. */
export function sqliteOf(backend: Backend): SqliteDatabase["sqlite"] {
  if (backend.database.dialect !== "sqlite") throw new Error("This test reads SQLite directly: run it on SQLite.");
  return backend.database.sqlite;
}

/** Fast retries for tests: 20 ms doubling to 200 ms. */
export const FAST_OUTBOX = { baseDelayMs: 20, maxDelayMs: 200, leaseMs: 2000, pollIntervalMs: 50 };

/** Tests may name the client address in a header to exercise the per-IP limit. */
export const testClientIp = (c: Context) => c.req.header("x-test-ip") ?? socketAddress(c);

export type TestLog = { entries: string[]; log: (message: string, error?: unknown) => void };

export function collectLog(): TestLog {
  const entries: string[] = [];
  return {
    entries,
    log: (message, error) => entries.push(`${message} ${error instanceof Error ? error.message : ""}`),
  };
}

/**
 * The backend on the project's database (a fresh one on PostgreSQL unless `config` names one), and
 * the JSON API on it. `clientIp`: the visitor's address; absent: the x-test-ip header; undefined:
 * as config.trustProxy says, like the server.
 */
export async function startTestBackend(
  config: Config,
  testOptions: BackendOptions & { clientIp?: (c: Context) => string | undefined } = {},
): Promise<Backend & { logs: string[]; api: Hono }> {
  const { clientIp: givenClientIp, ...options } = testOptions;
  const clientIp = "clientIp" in testOptions ? (givenClientIp ?? clientAddressReader(config.trustProxy)) : testClientIp;
  const { entries, log } = collectLog();
  const backend = await startBackend(await databaseConfig(config.dataDir, config), {
    outbox: FAST_OUTBOX,
    log,
    ...options,
  });
  const api = createApi({
    backend,
    siteUrl: backend.config.siteUrl,
    clientIp,
    ownOrigin: requestOriginReader(backend.config.trustProxy),
    log: backend.log,
  });
  return Object.assign(backend, { logs: entries, api });
}

export type Served = { url: string; port: number; close(): Promise<void> };

/** Serves a Hono app with @hono/node-server on 127.0.0.1 and a free port. */
export function serveApp(app: Hono): Promise<Served> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            if ("closeAllConnections" in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

export { type ReceivedMail, type SmtpRecorder, startSmtp } from "../support/smtp.ts";

/** Polls until `check` returns a truthy value, at most `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 20, what = "condition" } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export type PostOptions = { headers?: Record<string, string>; origin?: string | null };

/** POSTs JSON like the site's own page would (same Origin), returning status, headers and parsed body. */
export async function postJson(url: string, body: unknown, options: PostOptions = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.origin !== null) headers.origin = options.origin ?? SITE_URL;
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  return readAnswer(response);
}

export async function readAnswer(response: Response) {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as Record<string, unknown> };
}

export type TestBackend = Awaited<ReturnType<typeof startTestBackend>>;

/** A newsletter issue as a send freezes it, for tests that send one without the content. */
export const TEST_ISSUE = {
  slug: "first-issue",
  subject: "First issue",
  bodyHtml: "<p>Hello.</p>",
  bodyText: "Hello.",
  issueUrl: `${SITE_URL}/updates/first-issue`,
  siteName: "Fixture site",
};
