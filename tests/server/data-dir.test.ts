/**
 * A DATA_DIR that cannot hold the database stops the start with a message that
 * names the variable, never a raw SqliteError stack.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ConfigError, readConfig } from "../../services/config.ts";
import { TEST_BUILD_ROOT } from "../support/test-build.ts";
import { makeTempDir } from "./helpers.ts";
import { ensureFixtureBuild } from "./production.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
let temp: ReturnType<typeof makeTempDir>;

beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.remove());

const read = (dataDir: string) => readConfig({ DATA_DIR: dataDir }, { ownerEmail: "owner@example.com" });

test("a file where DATA_DIR should be, or a folder inside a file, is a configuration error naming DATA_DIR", () => {
  const file = join(temp.path, "not-a-folder");
  writeFileSync(file, "x");
  for (const dataDir of [file, join(file, "data")]) {
    expect(() => read(dataDir)).toThrow(ConfigError);
    expect(() => read(dataDir)).toThrow(/DATA_DIR=.* must be a folder the server can write \(.* is a file/);
  }
});

test("a missing DATA_DIR is created", () => {
  const dataDir = join(temp.path, "new", "data");
  expect(read(dataDir).dataDir).toBe(dataDir);
  expect(existsSync(dataDir)).toBe(true);
});

test("the server process started on an unusable DATA_DIR exits with the message and no stack trace", async () => {
  // The server reads the owner from the build before its settings.
  await ensureFixtureBuild();
  const file = join(temp.path, "not-a-folder");
  writeFileSync(file, "x");
  const result = spawnSync(process.execPath, ["--import", "tsx", "host/main.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: file, PORT: "0", HOST: "127.0.0.1", BUILD_DIR: TEST_BUILD_ROOT },
    encoding: "utf8",
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("DATA_DIR=");
  expect(result.stderr).toContain("must be a folder the server can write");
  expect(result.stderr).not.toMatch(/SqliteError|\n\s+at /);
});

test("MESSAGE_RETENTION_DAYS defaults to 90 days and must be a whole number of at least 1", () => {
  const dataDir = join(temp.path, "data");
  const withRetention = (value?: string) =>
    readConfig({ DATA_DIR: dataDir, MESSAGE_RETENTION_DAYS: value }, { ownerEmail: "owner@example.com" });
  expect(withRetention().messageRetentionDays).toBe(90);
  expect(withRetention("7").messageRetentionDays).toBe(7);
  for (const bad of ["0", "1.5", "forever"]) expect(() => withRetention(bad)).toThrow(/MESSAGE_RETENTION_DAYS=/);
});

test("DATABASE_URL must name a PostgreSQL server, and needs SECRET_KEY (the same on every instance)", () => {
  const env = { DATA_DIR: temp.path, SECRET_KEY: "k".repeat(32) };
  const owner = { ownerEmail: "owner@example.com" };
  const url = "postgres://site:secret@db.example.com:5432/site";
  expect(readConfig({ ...env, DATABASE_URL: url }, owner).databaseUrl).toBe(url);
  expect(readConfig({ ...env, DATABASE_URL: "" }, owner).databaseUrl).toBeUndefined();
  expect(() => readConfig({ ...env, DATABASE_URL: "mysql://db.example.com/site" }, owner)).toThrow(
    /DATABASE_URL="mysql:\/\/db\.example\.com\/site" must start with postgres:\/\//,
  );
  expect(() => readConfig({ ...env, DATABASE_URL: "db.example.com" }, owner)).toThrow(
    /DATABASE_URL=.* must look like postgres:\/\/user:password@host:5432\/database/,
  );
  expect(() => readConfig({ DATA_DIR: temp.path, DATABASE_URL: url }, owner)).toThrow(
    /SECRET_KEY must be set when DATABASE_URL is/,
  );
});

test("`npm run backup` with DATABASE_URL set refuses to back up a SQLite file that holds nothing", () => {
  const result = spawnSync(process.execPath, ["scripts/backup.mjs", "--to", join(temp.path, "backups")], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: temp.path, DATABASE_URL: "postgres://site@db.example.com/site" },
    encoding: "utf8",
  });
  expect(result.status).toBe(2);
  expect(result.stderr).toContain("DATABASE_URL is set: the data is in PostgreSQL");
  expect(existsSync(join(temp.path, "backups"))).toBe(false);
});
