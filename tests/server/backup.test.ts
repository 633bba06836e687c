/**
 * The backup guide of docs/deploy.md, run as written: `npm run backup` while the server takes sign-ups and contact
 * messages, then `npm run restore` into a fresh DATA_DIR, which the server's own code opens with
 * the same rows. The backup holds every row acknowledged before it started (SQLite's online
 * backup API is a consistent snapshot, WAL included) and passes SQLite's integrity check. A
 * restore is refused while the production server has the database open.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, test } from "vitest";
import { readOrCreateSecret } from "../../services/config.ts";
import { makeTempDir, serveApp, startTestBackend, testConfig } from "./helpers.ts";
import { root, startProductionServer } from "./production.ts";

const temps: ReturnType<typeof makeTempDir>[] = [];
afterEach(() => {
  for (const temp of temps.splice(0)) temp.remove();
});

function tempDir() {
  const temp = makeTempDir("site-backup-");
  temps.push(temp);
  return temp.path;
}

/** `npm run <script> -- …args` with DATA_DIR, as the guide runs it; its exit code and output. */
function npmRun(script: string, args: string[], dataDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

function countRows(file: string) {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const count = (query: string) => (database.prepare(`SELECT COUNT(*) AS n FROM ${query}`).get() as { n: number }).n;
    return {
      subscribers: count("subscribers"),
      // A sign-up also queues its confirmation mail: the contact messages are the other writes.
      messages: count("messages WHERE kind = 'contact'"),
      allMessages: count("messages"),
      integrity: database.pragma("integrity_check", { simple: true }),
    };
  } finally {
    database.close();
  }
}

test("a backup taken while the server writes restores into a fresh DATA_DIR with every row it holds", async () => {
  const dataDir = tempDir();
  const backend = await startTestBackend(testConfig(dataDir), { startOutbox: false });
  const served = await serveApp(backend.api);
  let acknowledged = 0;
  let writing = true;
  const writer = async (lane: number) => {
    for (let index = 0; writing; index++) {
      const email = `reader-${lane}-${index}@example.com`;
      const [path, body] =
        index % 2 === 0
          ? ["/api/user", { email }]
          : ["/api/email", { email, subject: `Hello ${index}`, body: "A message written during the backup." }];
      const response = await fetch(served.url + path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "http://localhost:3000" },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      expect([201, 202]).toContain(response.status);
      acknowledged++;
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  try {
    while (acknowledged < 200) await new Promise((done) => setTimeout(done, 20));
    const acknowledgedBefore = acknowledged;
    const backups = tempDir();
    const backup = await npmRun("backup", ["--to", backups, "--keep", "3"], dataDir);
    expect(backup.code, backup.output).toBe(0);
    const acknowledgedAfter = acknowledged;
    // The server kept writing while the backup ran.
    expect(acknowledgedAfter).toBeGreaterThan(acknowledgedBefore);
    writing = false;
    await Promise.all(writers);

    const [file] = readdirSync(backups);
    expect(file).toMatch(/^site-\d{8}T\d{6}Z\.db$/);
    const saved = countRows(join(backups, file as string));
    expect(saved.integrity).toBe("ok");
    expect(saved.subscribers + saved.messages).toBeGreaterThanOrEqual(acknowledgedBefore);
    // At most the four writers' requests in flight when the backup ended were not yet acknowledged.
    expect(saved.subscribers + saved.messages).toBeLessThanOrEqual(acknowledgedAfter + 4);
    expect(saved.subscribers).toBeGreaterThan(0);
    expect(saved.messages).toBeGreaterThan(0);

    const freshDir = tempDir();
    const restore = await npmRun("restore", ["--from", join(backups, file as string)], freshDir);
    expect(restore.code, restore.output).toBe(0);
    const restored = countRows(join(freshDir, "site.db"));
    expect(restored).toEqual(saved);

    // The server's own code opens the restored database and finds the same rows.
    const reopened = await startTestBackend(testConfig(freshDir), { startOutbox: false });
    try {
      const db = reopened.database.db;
      const subscribers = await db
        .selectFrom("subscribers")
        .select(db.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      const messages = await db.selectFrom("messages").select(db.fn.countAll<number>().as("n")).executeTakeFirst();
      expect([Number(subscribers?.n), Number(messages?.n)]).toEqual([saved.subscribers, saved.allMessages]);
    } finally {
      await reopened.close();
    }
  } finally {
    writing = false;
    await Promise.allSettled(writers);
    await served.close();
    await backend.close();
  }
});

test("a backup keeps the newsletter's secret beside it, and a restore puts it back: mailed links keep working", async () => {
  const dataDir = tempDir();
  const backend = await startTestBackend(testConfig(dataDir), { startOutbox: false });
  await backend.close();
  const secret = readOrCreateSecret(dataDir);
  const ownerOnly = (file: string) => statSync(file).mode & 0o777;

  const backups = tempDir();
  const first = await npmRun("backup", ["--to", backups], dataDir);
  expect(first.code, first.output).toBe(0);
  expect(first.output).toContain("Kept the newsletter's secret");
  expect(readFileSync(join(backups, "secret"), "utf8").trim()).toBe(secret);
  expect(ownerOnly(join(backups, "secret"))).toBe(0o600);
  // The same secret is not written again.
  const second = await npmRun("backup", ["--to", backups], dataDir);
  expect(second.code, second.output).toBe(0);
  expect(second.output).not.toContain("secret");
  const backup = readdirSync(backups).find((name) => name.endsWith(".db"));
  if (!backup) throw new Error("no backup was written");

  // Onto a new machine: the restored site signs with the old secret.
  const freshDir = tempDir();
  const restore = await npmRun("restore", ["--from", join(backups, backup)], freshDir);
  expect(restore.code, restore.output).toBe(0);
  expect(readOrCreateSecret(freshDir)).toBe(secret);
  expect(ownerOnly(join(freshDir, "secret"))).toBe(0o600);

  // Over a site that made a secret of its own since: that one is kept aside, not lost.
  const changedDir = tempDir();
  writeFileSync(join(changedDir, "secret"), "a-newer-secret\n", { mode: 0o600 });
  const over = await npmRun("restore", ["--from", join(backups, backup)], changedDir);
  expect(over.code, over.output).toBe(0);
  expect(readOrCreateSecret(changedDir)).toBe(secret);
  const replaced = readdirSync(changedDir).find((name) => name.startsWith("secret.replaced-"));
  expect(replaced && readFileSync(join(changedDir, replaced), "utf8")).toBe("a-newer-secret\n");
});

test("backups and restores are their owner's only: files 0600 in folders 0700, an open folder narrowed", async () => {
  const dataDir = tempDir();
  const backend = await startTestBackend(testConfig(dataDir), { startOutbox: false });
  await backend.close();
  readOrCreateSecret(dataDir);
  const mode = (path: string) => statSync(path).mode & 0o777;

  const newFolder = join(tempDir(), "backups", "site");
  const intoNew = await npmRun("backup", ["--to", newFolder], dataDir);
  expect(intoNew.code, intoNew.output).toBe(0);
  expect(mode(newFolder)).toBe(0o700);
  for (const file of readdirSync(newFolder)) expect([file, mode(join(newFolder, file))]).toEqual([file, 0o600]);

  const openFolder = join(tempDir(), "shared");
  mkdirSync(openFolder, { mode: 0o755 });
  chmodSync(openFolder, 0o755);
  const intoOpen = await npmRun("backup", ["--to", openFolder], dataDir);
  expect(intoOpen.code, intoOpen.output).toBe(0);
  expect(intoOpen.output).toContain(`Made ${openFolder} readable by its owner only (it was 755).`);
  expect(mode(openFolder)).toBe(0o700);

  // A backup copied around with a looser mode still restores as the owner's only.
  const backup = readdirSync(newFolder).find((name) => name.endsWith(".db"));
  if (!backup) throw new Error("no backup was written");
  chmodSync(join(newFolder, backup), 0o644);
  const restoredDir = join(tempDir(), "data");
  const restore = await npmRun("restore", ["--from", join(newFolder, backup)], restoredDir);
  expect(restore.code, restore.output).toBe(0);
  expect(mode(restoredDir)).toBe(0o700);
  expect(mode(join(restoredDir, "site.db"))).toBe(0o600);
  expect(mode(join(restoredDir, "secret"))).toBe(0o600);
});

describe("npm run restore beside the production server", () => {
  const signUp = (origin: string, email: string) =>
    fetch(`${origin}/api/user`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: origin },
      body: JSON.stringify({ email }),
    });

  /** A backup of a new, empty database, in a folder of its own. */
  async function backupFile(): Promise<string> {
    const dataDir = tempDir();
    const backend = await startTestBackend(testConfig(dataDir), { startOutbox: false });
    await backend.close();
    const backups = tempDir();
    const made = await npmRun("backup", ["--to", backups], dataDir);
    expect(made.code, made.output).toBe(0);
    return join(backups, readdirSync(backups).find((name) => name.endsWith(".db")) as string);
  }

  test("is refused in one line while the server has the database open, and a sign-up after it is kept", async () => {
    const backup = await backupFile();
    const dataDir = tempDir();
    const server = await startProductionServer({ DATA_DIR: dataDir, RATE_LIMIT: "0" });
    try {
      expect((await signUp(server.origin, "before@example.com")).status).toBe(201);
      const refused = await npmRun("restore", ["--from", backup], dataDir);
      expect(refused.code).toBe(1);
      expect(refused.output.trim()).toMatch(
        new RegExp(
          `^Refused: the server \\(process ${server.child.pid}\\) has ${join(dataDir, "site.db")} open; stop it first`,
        ),
      );
      expect(readdirSync(dataDir).filter((name) => name.includes("replaced"))).toEqual([]);
      expect((await signUp(server.origin, "after@example.com")).status).toBe(201);
    } finally {
      await server.stop();
    }
    const database = new Database(join(dataDir, "site.db"), { readonly: true });
    try {
      const emails = database.prepare("SELECT email FROM subscribers ORDER BY email").pluck().all();
      expect(emails).toEqual(["after@example.com", "before@example.com"]);
    } finally {
      database.close();
    }
  }, 300_000);

  test("goes ahead once the server has stopped, even when it died without cleaning up", async () => {
    const backup = await backupFile();
    const dataDir = tempDir();
    const server = await startProductionServer({ DATA_DIR: dataDir, RATE_LIMIT: "0" });
    server.child.kill("SIGKILL");
    await server.stop();
    expect(readdirSync(join(dataDir, "servers"))).toEqual([String(server.child.pid)]);
    const restore = await npmRun("restore", ["--from", backup], dataDir);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain("Restored");
  }, 300_000);
});
