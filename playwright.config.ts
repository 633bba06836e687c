import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { FIXTURE_CONTENT_ROOT } from "./tests/browser/fixture-site.ts";
import { CHROMIUM_ARGS, findChromium } from "./tests/support/chromium.ts";
import { setTestBuildDir } from "./tests/support/test-build.ts";

// The fixture site is built and served in the tests' own folder, never the checkout's build/.
setTestBuildDir();

const port = Number(process.env.TEST_PORT ?? 4317);
const baseURL = `http://127.0.0.1:${port}`;
const dataDir = process.env.TEST_DATA_DIR ?? mkdtempSync(join(tmpdir(), "site-browser-"));
process.env.TEST_DATA_DIR = dataDir;

/** The browser tests run against the production build served by the production server (tests/browser/serve.ts builds it when missing). */
export default defineConfig({
  testDir: "tests/browser",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "test-results/browser.json" }]],
  use: {
    baseURL,
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
    trace: "off",
  },
  webServer: {
    command: "node --import tsx tests/browser/serve.ts",
    url: `${baseURL}/`,
    reuseExistingServer: false,
    timeout: 300_000,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: baseURL,
      DATA_DIR: dataDir,
      RATE_LIMIT: "0",
      CONTENT_ROOT: FIXTURE_CONTENT_ROOT,
    },
  },
});
