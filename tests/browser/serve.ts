/**
 * The browser tests' server: a real SMTP server on 127.0.0.1 that files every mail it receives
 * under $TEST_DATA_DIR/received/, then the production server as `npm start` runs it (compiled by the
 * build into its server/main.js) sending to it. The SMTP server's URL is also written to
 * $TEST_DATA_DIR/smtp-url, for a test that runs an owner command (`npm run newsletter`) against it.
 * The fixture site is built first into the tests' build folder when it is not there yet.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { currentBuild, importFromBuild } from "../../build-tools/build-folders.mjs";
import { startSmtp } from "../support/smtp.ts";
import { TEST_BUILD_ROOT } from "../support/test-build.ts";
import { FIXTURE_CONTENT_ROOT, fixtureBuildProblem } from "./fixture-site.ts";

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR must be set");
const received = join(dataDir, "received");
mkdirSync(received, { recursive: true });

const smtp = await startSmtp({ saveTo: received });
process.env.SMTP_URL = smtp.url;
writeFileSync(join(dataDir, "smtp-url"), smtp.url);
if (fixtureBuildProblem()) {
  // At the default SITE_URL, as `npm test` builds it: the pages need not carry the test server's origin.
  const { SITE_URL: _origin, ...environment } = process.env;
  const built = spawnSync(process.execPath, ["build-tools/build.mjs"], {
    stdio: "inherit",
    env: { ...environment, CONTENT_ROOT: FIXTURE_CONTENT_ROOT, BUILD_DIR: TEST_BUILD_ROOT },
  });
  if (built.status !== 0) process.exit(1);
}
await importFromBuild(currentBuild(TEST_BUILD_ROOT), "server/main.js");
