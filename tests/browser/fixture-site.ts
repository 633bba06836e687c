/**
 * The site the browser tests run on: built from the fixture tree tests/fixtures (content/ and
 * public/), never from the owner's content, so an owner's edit cannot turn a test red.
 */
import { join } from "node:path";
import { readBuildInfo } from "../../build-tools/build-folders.mjs";
import { contentRoot, loadCatalogue } from "../../catalogue/disk.ts";
import { TEST_BUILD } from "../support/test-build.ts";

const PROJECT_ROOT = join(import.meta.dirname, "../..");

/** CONTENT_ROOT for the build and the server (catalogue/content-root.ts). */
export const FIXTURE_CONTENT_ROOT = "tests/fixtures";

export const catalogue = loadCatalogue(join(PROJECT_ROOT, FIXTURE_CONTENT_ROOT));

/** Why the tests' build is not the fixture site, or null when it is. */
export function fixtureBuildProblem(): string | null {
  const fixture = contentRoot(PROJECT_ROOT, { CONTENT_ROOT: FIXTURE_CONTENT_ROOT });
  if (readBuildInfo(TEST_BUILD)?.contentRoot === fixture) return null;
  return `The browser tests run on the fixture site: build it first with CONTENT_ROOT=${FIXTURE_CONTENT_ROOT} npm run build`;
}
