// Approved replies show under a post within a minute of approval on every instance: the list of pages
// that have some is read from the database at most every `refreshMs` (docs/decisions/replies-rendered-per-request.md).
import type { Db } from "../services/db/database.ts";
import { approvedVersions } from "../services/replies/store.ts";

export const REPLIED_PAGES_REFRESH_MS = 15_000;

export function createRepliedPages(
  db: Db,
  { refreshMs = REPLIED_PAGES_REFRESH_MS, log = console.error as (message: string, error?: unknown) => void } = {},
) {
  let versions = new Map<string, string>();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;

  function refresh() {
    reading ??= approvedVersions(db)
      .then((read) => {
        versions = read;
      })
      // A database that cannot answer keeps the pages as they were, and is asked again after `refreshMs`.
      .catch((error) => log("[replies] could not read which pages have replies", error))
      .finally(() => {
        readAt = Date.now();
        reading = undefined;
      });
    return reading;
  }

  return {
    /** The version of `path`'s approved replies, or undefined when it has none and its prerendered file is whole. */
    async versionOf(path: string): Promise<string | undefined> {
      if (Date.now() - readAt >= refreshMs) await refresh();
      return versions.get(path);
    },
  };
}
