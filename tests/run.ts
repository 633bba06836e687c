/**
 * `npm test`: every check, in order — types, lint, unit and integration tests, the owner-edit
 * proof (tests/owner-edits.ts), the production build of the fixture site, browser tests on that
 * build in Debian's Chromium (installed with apt-get when missing and running as root). Every step runs even when an earlier one failed, so one run shows all
 * problems; the last line is the total: "N passed, N failed". The run builds in a temporary
 * folder of its own (TEST_BUILD_DIR, tests/support/test-build.ts), and its last check is that the
 * checkout's build/ and data/, which a running `npm start` may be serving, are as they were.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { FIXTURE_CONTENT_ROOT } from "./browser/fixture-site.ts";
import { findChromium } from "./support/chromium.ts";

const root = join(import.meta.dirname, "..");
const results = join(root, "test-results");
mkdirSync(results, { recursive: true });

/**
 * Every entry of the checkout's build/ and data/ with a hash of its bytes (of a link: its target).
 * SQLite's shared-memory index (-shm) aside: every reader of a running server's database writes it.
 */
function checkoutState(): string[] {
  return ["build", "data"].flatMap((folder) => {
    const dir = join(root, folder);
    if (!existsSync(dir)) return [`${folder}: none`];
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => !entry.name.endsWith("-shm"))
      .map((entry) => {
        const path = join(entry.parentPath, entry.name);
        const what = entry.isSymbolicLink()
          ? `→ ${readlinkSync(path)}`
          : entry.isFile()
            ? createHash("sha256").update(readFileSync(path)).digest("hex")
            : "folder";
        return `${relative(root, path)} ${what}`;
      })
      .sort();
  });
}
const checkoutBefore = checkoutState();
const testBuilds = mkdtempSync(join(tmpdir(), "creator-site-test-run-"));
process.env.TEST_BUILD_DIR = testBuilds;

type Counts = { passed: number; failed: number };
const total: Counts = { passed: 0, failed: 0 };
/** What failed, repeated just above the total: CI may keep only the end of a long output. */
const failures: string[] = [];

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  console.log(`\n▶ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

/** A step that is one check: it passes or fails as a whole. */
function check(name: string, ok: boolean) {
  if (ok) total.passed++;
  else {
    total.failed++;
    failures.push(name);
  }
  console.log(`${ok ? "✓" : "✗"} ${name}`);
}

/** A test suite: its own report says how many tests passed and failed, and which failed. */
function suite(name: string, ok: boolean, report: string, read: (json: never) => Counts & { failedTests: string[] }) {
  if (!existsSync(report)) {
    check(`${name} (no report written)`, false);
    return;
  }
  const counts = read(JSON.parse(readFileSync(report, "utf8")) as never);
  if (!ok && counts.failed === 0) counts.failed = 1;
  if (counts.failed > 0) {
    failures.push(...(counts.failedTests.length > 0 ? counts.failedTests.map((test) => `${name}: ${test}`) : [name]));
  }
  total.passed += counts.passed;
  total.failed += counts.failed;
  console.log(`${counts.failed === 0 ? "✓" : "✗"} ${name}: ${counts.passed} passed, ${counts.failed} failed`);
}

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string }[];
  }[];
};

/** Each failed test, and each file that failed outside its tests (an import error, a failing hook). */
function failedVitestTests(report: VitestReport): string[] {
  return report.testResults.flatMap((file) => {
    const path = relative(root, file.name);
    const failed = file.assertionResults.filter((test) => test.status === "failed");
    if (failed.length === 0 && file.status === "failed")
      return [`${path}: ${file.message?.split("\n")[0] ?? "failed"}`];
    return failed.map((test) => `${path} › ${test.fullName}`);
  });
}

type PlaywrightSuite = {
  title: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; file: string; line: number; tests: { status: string }[] }[];
};
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number }; suites: PlaywrightSuite[] };

/** Each failed test by its full name; the report's outermost suites are the files, named already by `spec.file`. */
function unexpectedTests(suites: PlaywrightSuite[], describes: string[] = [], inFile = false): string[] {
  return suites.flatMap((suite) => {
    const names = inFile ? [...describes, suite.title] : describes;
    return [
      ...(suite.specs ?? [])
        .filter((spec) => spec.tests.some((test) => test.status === "unexpected"))
        .map((spec) => `${spec.file}:${spec.line} › ${[...names, spec.title].join(" › ")}`),
      ...unexpectedTests(suite.suites ?? [], names, true),
    ];
  });
}

function ensureChromium(): string | undefined {
  const found = findChromium();
  if (found) return found;
  if (process.getuid?.() === 0) {
    console.log("Chromium is missing: installing Debian's chromium with apt-get…");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium"], { DEBIAN_FRONTEND: "noninteractive" });
    return findChromium();
  }
  console.error(
    "Chromium not found. Install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.",
  );
  return undefined;
}

check("types", run("npx", ["react-router", "typegen"]) && run("npx", ["tsc", "--noEmit"]));
check("lint and format", run("npx", ["biome", "check", "."]));

const vitestReport = join(results, "vitest.json");
rmSync(vitestReport, { force: true });
suite(
  "unit and integration tests",
  run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`]),
  vitestReport,
  (json: VitestReport) => ({
    passed: json.numPassedTests,
    failed: json.numFailedTests,
    failedTests: failedVitestTests(json),
  }),
);

// The owner's first edits to the sample (a new note, a re-read, a new name, a new Now date) in a copy
// of the project leave the unit suites, check:content and the build green.
check("owner edits leave the tests green (tests/owner-edits.ts)", run("npx", ["tsx", "tests/owner-edits.ts"]));

// The browser tests run on the fixture site (tests/browser/fixture-site.ts), never on the owner's content.
const built = run("npm", ["run", "build", "--", "--logLevel", "warn"], {
  CONTENT_ROOT: FIXTURE_CONTENT_ROOT,
  BUILD_DIR: testBuilds,
});
check("production build", built);

const chromium = ensureChromium();
if (!built || !chromium) {
  check("browser tests (need the build and Chromium)", false);
} else {
  const browserReport = join(results, "browser.json");
  rmSync(browserReport, { force: true });
  suite(
    "browser tests",
    run("npx", ["playwright", "test"], { CHROMIUM_PATH: chromium }),
    browserReport,
    (json: PlaywrightReport) => ({
      passed: json.stats.expected + json.stats.flaky,
      failed: json.stats.unexpected,
      failedTests: unexpectedTests(json.suites),
    }),
  );
}

const before = new Set(checkoutBefore);
const after = new Set(checkoutState());
const differences = [...after]
  .filter((entry) => !before.has(entry))
  .concat(checkoutBefore.filter((entry) => !after.has(entry)));
if (differences.length > 0) console.log(`Changed: ${differences.slice(0, 10).join(", ")}`);
check("the checkout's build/ and data/ are as they were before the tests", differences.length === 0);
rmSync(testBuilds, { recursive: true, force: true });

if (failures.length > 0) console.log(`\nFailed:\n${failures.map((failure) => `  ✗ ${failure}`).join("\n")}`);
console.log(`\n${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed === 0 ? 0 : 1);
