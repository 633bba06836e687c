// A server and `npm run restore` each mark first and then look for the other, so the two never run at once.
// Plain JavaScript: `npm run restore` runs with `node` alone.
import { join } from "node:path";
import { claim, holderOf, mark, release, runningMarks, unmark } from "./pid-files.mjs";

const serversFolder = (dataDir) => join(dataDir, "servers");
const restoreLock = (dataDir) => join(dataDir, "restore.lock");

export function claimForServer(dataDir) {
  mark(serversFolder(dataDir));
  const restoring = holderOf(restoreLock(dataDir));
  if (restoring === undefined) return undefined;
  unmark(serversFolder(dataDir));
  return `npm run restore (process ${restoring}) is replacing ${join(dataDir, "site.db")}: start the server once it has finished.`;
}

export const releaseForServer = (dataDir) => unmark(serversFolder(dataDir));

export function claimForRestore(dataDir) {
  const lock = restoreLock(dataDir);
  if (!claim(lock)) return `Another restore (process ${holderOf(lock)}) is running on ${dataDir}.`;
  const servers = [...runningMarks(serversFolder(dataDir)).keys()];
  if (servers.length === 0) return undefined;
  release(lock);
  return `Refused: the server (process ${servers.join(", ")}) has ${join(dataDir, "site.db")} open; stop it first (sudo systemctl stop creator-site), then restore.`;
}

export const releaseForRestore = (dataDir) => release(restoreLock(dataDir));
