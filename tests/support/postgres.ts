/**
 * A real PostgreSQL server for the tests: `TEST_DATABASE_URL` when given (a role
 * that may CREATE DATABASE), else a throwaway cluster made with Debian's `initdb` and started with
 * `pg_ctl` in a temporary folder, listening on 127.0.0.1 and a free port. PostgreSQL refuses to
 * run as root, so when the tests run as root the cluster belongs to the `postgres` user (created
 * by Debian's package) and its commands run through `runuser`.
 * Every test asks for a fresh database (`createTestDatabase`), so tests never see each other's rows.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./free-port.ts";

/** Prefix of the databases the tests create; `dropTestDatabases` removes them all. */
const TEST_DATABASE_PREFIX = "site_test_";

/** The newest PostgreSQL's programs: Debian keeps each version in /usr/lib/postgresql/<version>/bin. */
export function findPostgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, "bin", "initdb")))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

function userIds(name: string): { uid: number; gid: number } | undefined {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

export type PostgresServer = {
  /** A URL to the server's `postgres` database, for creating and dropping test databases. */
  adminUrl: string;
  stop(): Promise<void>;
};

/**
 * Starts a throwaway cluster (or names TEST_DATABASE_URL's server); `stop()` removes it.
 * `durable`: keep PostgreSQL's fsync on, for a benchmark that compares it with SQLite's FULL sync.
 */
export async function startPostgres({ durable = false }: { durable?: boolean } = {}): Promise<PostgresServer> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { adminUrl: given, stop: () => dropTestDatabases(given) };

  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      "PostgreSQL is not installed: `apt-get install postgresql` (Debian), or set TEST_DATABASE_URL to a server where the role may create databases.",
    );
  }
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? userIds("postgres") : undefined;
  if (asRoot && !owner) throw new Error("Running as root, but there is no `postgres` user to run PostgreSQL as.");
  const folder = mkdtempSync(join(tmpdir(), "site-postgres-"));
  if (owner) chownSync(folder, owner.uid, owner.gid);
  const dataDir = join(folder, "data");
  const run = (program: string, args: string[]) => {
    const command = asRoot ? "runuser" : join(bin, program);
    const commandArgs = asRoot ? ["-u", "postgres", "--", join(bin, program), ...args] : args;
    execFileSync(command, commandArgs, { cwd: folder, stdio: ["ignore", "pipe", "pipe"] });
  };

  const port = await freePort();
  try {
    run("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"]);
    // Durability is not under test: without fsync the cluster is several times faster.
    const settings = [
      `-c listen_addresses=127.0.0.1`,
      `-c port=${port}`,
      `-c unix_socket_directories=${folder}`,
      ...(durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
      "-c max_connections=200",
    ].join(" ");
    run("pg_ctl", ["-D", dataDir, "-l", join(folder, "server.log"), "-o", settings, "-w", "-t", "60", "start"]);
  } catch (error) {
    const log = existsSync(join(folder, "server.log")) ? readFileSync(join(folder, "server.log"), "utf8") : "";
    rmSync(folder, { recursive: true, force: true });
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new Error(`Could not start a test PostgreSQL in ${folder}: ${output}\n${log}`);
  }
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

let created = 0;

/** A new empty database on the server; returns its URL. */
export async function createTestDatabase(adminUrl: string): Promise<string> {
  created++;
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_${created}_${Math.random().toString(36).slice(2, 8)}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops every database the tests created (on a server the tests do not own). */
export async function dropTestDatabases(adminUrl: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
      `${TEST_DATABASE_PREFIX}%`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE ${datname} WITH (FORCE)`);
  });
}
