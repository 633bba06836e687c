import { defineConfig } from "vitest/config";
import { setTestBuildDir } from "./tests/support/test-build.ts";

// Builds and servers of the tests, in this process and its children, never touch the checkout's build/.
setTestBuildDir();

/**
 * The suites that touch the database run twice: in the "sqlite" project on the
 * embedded file, and in the "postgres" project on a real PostgreSQL server started for the run
 * (tests/support/postgres-setup.ts; TEST_BACKEND tells tests/server/helpers.ts which one).
 */
const DATABASE_SUITES = [
  "tests/server/db-upgrade.test.ts",
  "tests/server/api.test.ts",
  "tests/server/bounces.test.ts",
  "tests/server/mail-events.test.ts",
  "tests/server/deliverability.test.ts",
  "tests/server/welcome.test.ts",
  "tests/server/outbox.test.ts",
  "tests/server/replies-cli.test.ts",
  "tests/server/replies-store.test.ts",
  "tests/server/reply-form.test.ts",
  "tests/server/services.test.ts",
  "tests/server/shared-rate-limit.test.ts",
  "tests/server/sweep.test.ts",
  "tests/server/federation.test.ts",
  "tests/server/federation-store.test.ts",
  "tests/server/webmention.test.ts",
  "tests/server/webmention-send.test.ts",
];

/** Only meaningful on PostgreSQL: its migrations, locks, the copy to it, several instances on one server. */
const POSTGRES_SUITES = [
  "tests/server/postgres.test.ts",
  "tests/server/instances.test.ts",
  "tests/server/db-copy.test.ts",
  "tests/server/static-split.test.ts",
];

export default defineConfig({
  test: {
    // Two test files at a time on two cores: several start servers or run the owner's commands
    // (a build, check:content), which then take up to twice as long as alone. The timeouts only
    // catch a hang, with room for a busy machine.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["tests/unit/**/*.test.ts", "tests/server/**/*.test.ts"],
          exclude: POSTGRES_SUITES,
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: [...DATABASE_SUITES, ...POSTGRES_SUITES],
          env: { TEST_BACKEND: "postgres" },
          globalSetup: ["tests/support/postgres-setup.ts"],
        },
      },
    ],
  },
});
