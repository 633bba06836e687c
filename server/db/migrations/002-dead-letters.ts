import type { Migration } from "./index.ts";

/** Dead letters: a message the SMTP server refused for good is `failed`. */
export const deadLetters: Migration = {
  name: "dead-letters",
  // SQLite cannot alter a CHECK constraint, so the table is rebuilt with 'failed'.
  sqlite: `
  CREATE TABLE messages_new (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    claim_token TEXT,
    last_error TEXT,
    sent_at TEXT
  ) STRICT;
  INSERT INTO messages_new SELECT * FROM messages;
  DROP TABLE messages;
  ALTER TABLE messages_new RENAME TO messages;
  CREATE INDEX messages_due ON messages (next_attempt_at, id) WHERE status = 'pending';
  `,
  postgres: `
  ALTER TABLE messages DROP CONSTRAINT messages_status_check;
  ALTER TABLE messages ADD CONSTRAINT messages_status_check CHECK (status IN ('pending', 'sent', 'failed'));
  `,
};
