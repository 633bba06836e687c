/**
 * A real server process for the crash and multi-instance tests: fixtures/backend-process.ts in a
 * child of its own, configured by its environment alone (nothing of the test runner's leaks in),
 * its output kept for the test's messages.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { childProcessEnv, SITE_URL, waitFor } from "./helpers.ts";

const fixture = fileURLToPath(new URL("./fixtures/backend-process.ts", import.meta.url));
const root = fileURLToPath(new URL("../..", import.meta.url));

export type BackendProcess = {
  process: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Its exit code (null after a signal) once it has ended. */
  exited: Promise<number | null>;
};

/** Starts the process on a free port of 127.0.0.1; `env` adds to (or overrides) that. */
export function spawnBackend(env: Record<string, string>): BackendProcess {
  const child = spawn(process.execPath, ["--import", "tsx", fixture], {
    cwd: root,
    env: {
      ...childProcessEnv(),
      SITE_URL,
      MAIL_FROM: "site@example.com",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { process: child, output: () => output, exited };
}

/** Waits for the process to print "listening <port>" and gives its address. */
export async function listeningUrl(backend: BackendProcess, timeoutMs = 30_000): Promise<string> {
  const match = await waitFor(() => /listening (\d+)/.exec(backend.output()), {
    timeoutMs,
    what: `the server process to listen (output: ${backend.output()})`,
  });
  return `http://127.0.0.1:${match[1]}`;
}
