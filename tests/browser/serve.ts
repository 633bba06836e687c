/**
 * The browser tests' server: a real SMTP server on 127.0.0.1 that files every mail it receives
 * under $TEST_DATA_DIR/received/, then the production server as `npm start` runs it (compiled by the
 * build into build/server/main.js) sending to it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SMTPServer } from "smtp-server";

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR must be set");
const received = join(dataDir, "received");
mkdirSync(received, { recursive: true });

let count = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, _session, done) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      count += 1;
      writeFileSync(join(received, `${String(count).padStart(4, "0")}.eml`), Buffer.concat(chunks));
      done();
    });
  },
});

smtp.listen(0, "127.0.0.1", async () => {
  const address = smtp.server.address();
  if (!address || typeof address === "string") throw new Error("SMTP server has no port");
  process.env.SMTP_URL = `smtp://127.0.0.1:${address.port}`;
  await import(pathToFileURL(join(process.cwd(), "build/server/main.js")).href);
});
