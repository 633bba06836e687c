import { resolve } from "node:path";
import { connectDatabase } from "../services/db/database.ts";
import {
  blockSender,
  getReply,
  listBlocks,
  listReplies,
  moderateReply,
  type Reply,
} from "../services/replies/store.ts";
import { printText, terminalText } from "./terminal-text.ts";

const dataDir = resolve(process.env.DATA_DIR || "./data");

const HELP = `Usage: npm run replies -- <command>

Commands:
  list [--json]        every reply, oldest first; --json prints them as a JSON array
  show <id>            one reply in full
  approve <id>         show a pending (or rejected) reply under its post
  reject <id>          keep a reply off its post
  block <what>         refuse an actor URL, a domain or an address: its waiting replies and later ones
                       are kept as blocked, never shown, and counted under "Blocked senders" in list
  --help               this text

A form reply is "unconfirmed" until its writer opens the link mailed to them and presses its button;
then it is "pending".
Uses the PostgreSQL database of DATABASE_URL when set, else the one in DATA_DIR (now ${dataDir}).`;

function fail(message: string): never {
  console.error(`${message}\n\n${HELP}`);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
if (!command || command === "--help" || command === "-h" || command === "help") {
  console.log(HELP);
  process.exit(0);
}
const takesId = command === "show" || command === "approve" || command === "reject";
if (!takesId && command !== "list" && command !== "block") fail(`Unknown command "${command}".`);
if (command === "list" && rest.length > 0 && (rest.length !== 1 || rest[0] !== "--json")) {
  fail("list takes only --json.");
}
if (takesId && (rest.length !== 1 || !/^[1-9]\d*$/.test(rest[0] ?? ""))) {
  fail(`${command} takes one reply id (a whole number, see \`list\`).`);
}
if (command === "block" && rest.length !== 1) fail("block takes one actor URL, domain or address.");

const authorOf = (reply: Reply) =>
  [reply.author_name, reply.author_url, reply.author_address].filter(Boolean).join(" ");

const database = await connectDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined });
try {
  if (command === "list") {
    const replies = await listReplies(database.db);
    if (rest[0] === "--json") {
      const rows = replies.map(({ id, kind, status, text, target, ...reply }) => ({
        id,
        kind,
        status,
        author: { name: reply.author_name, url: reply.author_url, address: reply.author_address },
        text,
        target,
      }));
      console.log(JSON.stringify(rows, null, 2));
    } else {
      if (replies.length === 0) console.log("No replies.");
      for (const reply of replies) {
        // The words are a stranger's: none of their control characters reach the terminal.
        const firstLine = reply.text.split("\n")[0]?.slice(0, 60) ?? "";
        printText(`#${reply.id}  ${reply.status}  ${reply.kind}  ${reply.target}  ${authorOf(reply)}  "${firstLine}"`);
      }
      const blocks = await listBlocks(database.db);
      if (blocks.length > 0) console.log("\nBlocked senders:");
      for (const block of blocks)
        printText(`  ${block.value}  (${block.dropped} repl${block.dropped === 1 ? "y" : "ies"} since)`);
    }
  } else if (command === "block") {
    const { value, held } = await blockSender(database.db, rest[0] ?? "");
    printText(
      `Blocked ${value}${held > 0 ? `; ${held} waiting repl${held === 1 ? "y" : "ies"} blocked with it` : ""}.`,
    );
  } else {
    const id = Number(rest[0]);
    const reply =
      command === "show"
        ? await getReply(database.db, id)
        : await moderateReply(database.db, id, command === "approve" ? "approved" : "rejected");
    if (!reply) {
      const existing = await getReply(database.db, id);
      console.error(existing ? `Reply #${id} is ${existing.status}: it cannot be ${command}d.` : `No reply #${id}.`);
      process.exitCode = 1;
    } else if (command === "show") {
      console.log(
        terminalText(
          [
            `#${reply.id}  ${reply.status}  ${reply.kind}  to ${reply.target}`,
            `From: ${authorOf(reply)}`,
            ...(reply.source_url ? [`Source: ${reply.source_url}`] : []),
            `Written: ${reply.written_at}  received: ${reply.received_at}`,
            "",
            reply.text,
          ].join("\n"),
        ),
      );
    } else {
      console.log(`Reply #${id} ${reply.status}.`);
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await database.close();
}
