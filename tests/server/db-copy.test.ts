/**
 * `npm run db -- copy --to postgres://…`, run as the owner runs it: a SQLite file
 * with subscribers, messages and a newsletter send is copied into a fresh database of the real
 * PostgreSQL server, ids kept (links already mailed keep working), counts verified; a second run
 * copies nothing; a target holding other rows under the same ids is refused and left untouched.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, test } from "vitest";
import {
  type Database,
  openDatabase,
  openPostgres,
  type SqliteDatabase,
  type Tables,
} from "../../services/db/database.ts";
import { insertMessage } from "../../services/mail/outbox.ts";
import { subscribe, unsubscribe } from "../../services/newsletter/subscriptions.ts";
import { unsubscribeToken } from "../../services/newsletter/tokens.ts";
import { freezeSend } from "../../services/newsletter/worker.ts";
import { databaseConfig, makeTempDir, SITE_URL, TEST_SECRET } from "./helpers.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
let temp: ReturnType<typeof makeTempDir>;
let source: SqliteDatabase;
let targetUrl: string;
const opened: Database[] = [];

beforeEach(async () => {
  temp = makeTempDir();
  source = await openDatabase(temp.path);
  opened.push(source);
  targetUrl = (await databaseConfig(temp.path)).databaseUrl as string;
});

afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
  temp.remove();
});

function copy(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/db.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: temp.path },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function fillSource() {
  for (const email of ["ada@example.com", "grace@example.com", "linus@example.com"]) {
    const outcome = await subscribe(source.db, email, { ip: "192.0.2.1" });
    if (outcome.outcome === "created") {
      await insertMessage(
        source.db,
        { kind: "confirmation", email, subject: "Please confirm", body: "Confirm" },
        { messageIdDomain: "example.com", now: Date.now() },
      );
    }
  }
  await source.db.updateTable("subscribers").set({ status: "confirmed" }).where("id", "<=", 2).execute();
  await freezeSend(
    source.db,
    {
      slug: "first-issue",
      subject: "First issue",
      bodyHtml: "<p>Hi</p>",
      bodyText: "Hi",
      issueUrl: `${SITE_URL}/updates/first-issue`,
      siteName: "Site",
    },
    { messageIdDomain: "example.com" },
  );
}

const TABLES = ["subscribers", "messages", "newsletter_sends", "newsletter_deliveries"] as const;

async function everyRow(database: Database) {
  const rows: Partial<Record<keyof Tables, unknown[]>> = {};
  for (const table of TABLES) rows[table] = await database.db.selectFrom(table).selectAll().orderBy("id").execute();
  return rows;
}

test("copy moves subscribers, messages and newsletter sends to PostgreSQL with their ids; a second copy adds nothing", async () => {
  await fillSource();
  const first = copy("copy", "--to", targetUrl);
  expect(first.stderr).toBe("");
  expect(first.status).toBe(0);
  expect(first.stdout).toContain("subscribers: 3 in SQLite, 3 copied, 0 already there — all 3 verified");
  expect(first.stdout).toContain("messages: 3 in SQLite, 3 copied");
  expect(first.stdout).toContain("newsletter_sends: 1 in SQLite, 1 copied");
  expect(first.stdout).toContain("newsletter_deliveries: 2 in SQLite, 2 copied");

  const target = await openPostgres(targetUrl);
  opened.push(target);
  expect(await everyRow(target)).toEqual(await everyRow(source));

  const again = copy("copy", "--to", targetUrl);
  expect(again.status).toBe(0);
  expect(again.stdout).toContain("subscribers: 3 in SQLite, 0 copied, 3 already there — all 3 verified");
  expect(await everyRow(target)).toEqual(await everyRow(source));

  // A link mailed before the move still names the right person; a new sign-up gets a new id.
  const grace = await target.db.selectFrom("subscribers").selectAll().where("id", "=", 2).executeTakeFirstOrThrow();
  expect(await unsubscribe(target.db, TEST_SECRET, unsubscribeToken(TEST_SECRET, grace))).toBe("unsubscribed");
  const created = await subscribe(target.db, "new@example.com");
  expect(created.outcome === "created" && created.subscriber.id).toBe(4);
});

test("copy into a database holding other rows under the same ids is refused, and copies nothing", async () => {
  await fillSource();
  const target = await openPostgres(targetUrl);
  opened.push(target);
  await subscribe(target.db, "someone-else@example.com");
  const refused = copy("copy", "--to", targetUrl);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toMatch(
    /subscribers: 1 of 3 rows differ in the PostgreSQL database \(id 1: ada@example\.com here, someone-else@example\.com there\)/,
  );
  expect(await target.db.selectFrom("subscribers").select("email").execute()).toEqual([
    { email: "someone-else@example.com" },
  ]);
});

test("copy explains itself and refuses a target that is not PostgreSQL", () => {
  expect(copy("--help").stdout).toContain("copy --to postgres://");
  const wrong = copy("copy", "--to", "mysql://db.example.com/site");
  expect(wrong.status).toBe(2);
  expect(wrong.stderr).toContain('--to must be a postgres:// URL, not "mysql://db.example.com/site"');
});
