import type { Migration } from "./index.ts";

/**
 * The rate limit shared by instances (issue 14): one row per counted submission, kept for one
 * window. Only the PostgreSQL deployment counts here; one SQLite process counts in memory.
 */
export const rateLimit: Migration = {
  name: "rate-limit",
  sqlite: `
  CREATE TABLE rate_limit_hits (
    key TEXT NOT NULL,
    at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX rate_limit_hits_key ON rate_limit_hits (key, at);
  CREATE INDEX rate_limit_hits_at ON rate_limit_hits (at);
  `,
  postgres: `
  CREATE TABLE rate_limit_hits (
    key text NOT NULL,
    at bigint NOT NULL
  );
  CREATE INDEX rate_limit_hits_key ON rate_limit_hits (key, at);
  CREATE INDEX rate_limit_hits_at ON rate_limit_hits (at);
  `,
};
