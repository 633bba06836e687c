/**
 * The production server of a built project, on a free port: the compiled server/main.js of the
 * build served that `npm start` runs (under tsx the same server answered the API about six times slower).
 */
import { join } from "node:path";
import { servedBuildOf } from "./build.ts";
import { startChild, tempDir, waitForHttp } from "./processes.ts";

/** `pid`: the server's process, whose memory a section may read. */
export type RunningServer = { url: string; pid?: number; stop(): Promise<void> };

/**
 * Starts the server of the project in `root` (built beforehand for this port's URL: the pages hold
 * absolute links) with no rate limit, its data in `dataDir` (by default a temporary folder), or
 * in the PostgreSQL database `env.DATABASE_URL` names.
 */
export async function startSiteServer(
  root: string,
  label: string,
  port: number,
  dataDir = tempDir(`${label}-data`),
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const url = `http://127.0.0.1:${port}`;
  const child = startChild(process.execPath, [join(servedBuildOf(root), "server/main.js")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: url,
      DATA_DIR: dataDir,
      RATE_LIMIT: "0",
      SMTP_URL: "",
      ...env,
    },
  });
  try {
    await waitForHttp(`${url}/`, 60_000, child);
  } catch (error) {
    await child.stop(2_000);
    throw error;
  }
  return { url, pid: child.process.pid, stop: () => child.stop(12_000) };
}
