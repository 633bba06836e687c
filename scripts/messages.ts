import { resolve } from "node:path";
import { listMessages, retryFailed } from "../services/contact/messages.ts";
import { connectDatabase } from "../services/db/database.ts";
import { printText } from "./terminal-text.ts";

const dataDir = resolve(process.env.DATA_DIR || "./data");

const HELP = `Usage: npm run messages -- <command>

Commands:
  list [--status pending|sent|failed]   the messages, oldest first (all statuses by default)
  retry <id> [<id>…]                    send failed messages again
  retry --all-failed                    send every failed message again
  --help                                this text

A message is "failed" when the SMTP server refused it for good (a 5xx reply); the reason is shown
in the list. Fix the cause (e.g. MAIL_FROM or OWNER_EMAIL), then retry.
Uses the PostgreSQL database of DATABASE_URL when set, else the one in DATA_DIR (now ${dataDir}).`;

const STATUSES = ["pending", "sent", "failed"] as const;

function fail(message: string): never {
  console.error(`${message}\n\n${HELP}`);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
if (!command || command === "--help" || command === "-h" || command === "help") {
  console.log(HELP);
  process.exit(0);
}
if (command !== "list" && command !== "retry") fail(`Unknown command "${command}".`);
const status = rest[0] === "--status" ? STATUSES.find((known) => known === rest[1]) : undefined;
if (command === "list" && rest.length > 0 && (rest.length !== 2 || !status)) {
  fail(`list takes only --status with one of ${STATUSES.join(", ")}.`);
}
const allFailed = rest.length === 1 && rest[0] === "--all-failed";
if (command === "retry" && !allFailed && (rest.length === 0 || rest.some((id) => !/^[1-9]\d*$/.test(id)))) {
  fail("retry takes message ids (whole numbers, see `list`) or --all-failed.");
}

const database = await connectDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined });
try {
  if (command === "list") {
    const messages = await listMessages(database.db, status);
    if (messages.length === 0) console.log(status ? `No ${status} messages.` : "No messages.");
    for (const message of messages) {
      // The address and subject are a visitor's: none of their control characters reach the terminal.
      printText(
        `#${message.id}  ${message.status}  ${message.created_at}  ${message.email}  "${message.subject}"  (${message.attempts} attempt${message.attempts === 1 ? "" : "s"})`,
      );
      if (message.status !== "sent" && message.last_error) printText(`    ${message.last_error}`);
    }
  } else {
    const ids = allFailed ? [] : rest.map(Number);
    const retried = await retryFailed(database.db, allFailed ? "all-failed" : { ids });
    const skipped = ids.filter((id) => !retried.includes(id));
    if (retried.length > 0) console.log(`Queued again: ${retried.map((id) => `#${id}`).join(", ")}.`);
    else console.log("No failed message to retry.");
    if (skipped.length > 0) {
      console.error(`Not failed (or no such message): ${skipped.map((id) => `#${id}`).join(", ")}.`);
      process.exitCode = 1;
    }
  }
} finally {
  await database.close();
}
