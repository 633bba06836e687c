/**
 * The browser tests' server: a real SMTP server on 127.0.0.1 that files every mail it receives
 * under $TEST_DATA_DIR/received/, then the production server as `npm start` runs it (compiled by the
 * build into build/server/main.js) sending to it. The SMTP server's URL is also written to
 * $TEST_DATA_DIR/smtp-url, for a test that runs an owner command (`npm run newsletter`) against it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startSmtp } from "../support/smtp.ts";

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR must be set");
const received = join(dataDir, "received");
mkdirSync(received, { recursive: true });

const smtp = await startSmtp({ saveTo: received });
process.env.SMTP_URL = smtp.url;
writeFileSync(join(dataDir, "smtp-url"), smtp.url);
await import(pathToFileURL(join(process.cwd(), "build/server/main.js")).href);
