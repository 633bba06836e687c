/**
 * Newsletter delivery on PostgreSQL: a send of 10,000 confirmed subscribers,
 * delivered by one app instance, then (on a fresh database) by two, as fast as a local SMTP sink
 * takes the mail (NEWSLETTER_RATE=unlimited). The sink only counts: parsing would measure the
 * benchmark instead of the site. The PostgreSQL cluster is durable (fsync on).
 */
import { sql } from "kysely";
import { SMTPServer } from "smtp-server";
import { openPostgres } from "../services/db/database.ts";
import { freezeSend } from "../services/newsletter/worker.ts";
import { createTestDatabase, startPostgres } from "../tests/support/postgres.ts";
import { freePort } from "./processes.ts";
import type { NewsletterRun } from "./results.ts";
import { startSiteServer } from "./server.ts";
import { round1 } from "./stats.ts";

const SECRET_KEY = "bench-secret-0123456789abcdef0123456789abcdef";

async function countingSmtp(): Promise<{ url: string; count: () => number; stop(): Promise<void> }> {
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        accepted++;
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    count: () => accepted,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function deliverWith(root: string, adminUrl: string, instances: number, recipients: number) {
  const databaseUrl = await createTestDatabase(adminUrl);
  const database = await openPostgres(databaseUrl);
  const smtp = await countingSmtp();
  const servers = [];
  try {
    await sql`
      INSERT INTO subscribers (email, email_lower, created_at, status, confirmed_at)
      SELECT 'reader' || n || '@example.com', 'reader' || n || '@example.com', '2026-01-01T00:00:00.000Z', 'confirmed', '2026-01-01T00:00:00.000Z'
      FROM generate_series(1, ${recipients}::integer) AS n`.execute(database.db);
    for (let index = 0; index < instances; index++) {
      servers.push(
        await startSiteServer(root, `newsletter-${index}`, await freePort(), undefined, {
          DATABASE_URL: databaseUrl,
          SECRET_KEY,
          SMTP_URL: smtp.url,
          NEWSLETTER_RATE: "unlimited",
        }),
      );
    }
    const started = performance.now();
    await freezeSend(
      database.db,
      {
        slug: "bench",
        subject: "Benchmark issue",
        bodyHtml: "<p>Hello, this is the benchmark's issue.</p>",
        bodyText: "Hello, this is the benchmark's issue.",
        issueUrl: "http://127.0.0.1/updates/bench",
        siteName: "Bench",
      },
      { messageIdDomain: "example.com" },
    );
    const deadline = started + 600_000;
    while (smtp.count() < recipients) {
      if (performance.now() > deadline) throw new Error(`only ${smtp.count()} of ${recipients} mails in 10 minutes`);
      await new Promise((done) => setTimeout(done, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    return { instances, seconds: round1(seconds), mailsPerSecond: Math.round(recipients / seconds) };
  } finally {
    for (const server of servers) await server.stop();
    await smtp.stop();
    await database.close();
  }
}

/** One instance, then two, each on a fresh database of one durable throwaway cluster. */
export async function measurePostgresNewsletter(root: string, recipients: number): Promise<NewsletterRun[]> {
  const postgres = await startPostgres({ durable: true });
  try {
    return [
      await deliverWith(root, postgres.adminUrl, 1, recipients),
      await deliverWith(root, postgres.adminUrl, 2, recipients),
    ];
  } finally {
    await postgres.stop();
  }
}
