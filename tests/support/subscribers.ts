import { join } from "node:path";
import Database from "better-sqlite3";

export type StoredSubscriber = { id: number; email_lower: string; created_at: string; status: string };

/** The row the running server stored for `email` in DATA_DIR's SQLite file, read beside it. */
export function storedSubscriber(dataDir: string, email: string): StoredSubscriber {
  const database = new Database(join(dataDir, "site.db"), { readonly: true });
  try {
    return database
      .prepare("SELECT id, email_lower, created_at, status FROM subscribers WHERE email_lower = ?")
      .get(email) as StoredSubscriber;
  } finally {
    database.close();
  }
}
