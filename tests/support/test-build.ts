/**
 * Where the tests build the fixture site and serve it from: never the checkout's build/, which a
 * running `npm start` may be serving. `npm test` makes one folder for the run and hands it on as
 * TEST_BUILD_DIR; Vitest or Playwright started alone use one of this checkout's own under the
 * system's temporary folder, kept between runs so that its build is reused.
 */
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { servedBuild } from "../../build-tools/build-folders.mjs";

const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

export const TEST_BUILD_ROOT =
  process.env.TEST_BUILD_DIR ||
  join(tmpdir(), `creator-site-test-build-${createHash("sha256").update(PROJECT_ROOT).digest("hex").slice(0, 12)}`);

/** The build the tests serve, through the link each build switches. */
export const TEST_BUILD = servedBuild(TEST_BUILD_ROOT);

/** Makes every build and server of this process and its children use the tests' folder. */
export function setTestBuildDir(): void {
  process.env.BUILD_DIR = TEST_BUILD_ROOT;
}
