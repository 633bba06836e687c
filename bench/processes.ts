/**
 * Child processes, temporary folders and time limits for the benchmark. Everything started here is
 * registered and ended when the benchmark ends, whether it finishes, fails or is interrupted.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Cleanup = () => void;
const cleanups = new Set<Cleanup>();

/** Runs `cleanup` when the benchmark process exits for any reason; returns a function that unregisters it. */
export function onExit(cleanup: Cleanup): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function runCleanups(): void {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // Best effort: the process is exiting.
    }
  }
}

let installed = false;
/** Ends every child and removes every temporary folder on exit, Ctrl-C, SIGTERM or an uncaught error. */
export function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  process.on("exit", runCleanups);
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the benchmark`);
      runCleanups();
      process.exit(code);
    });
  }
  process.on("uncaughtException", (error) => {
    console.error("Benchmark failed:", error);
    runCleanups();
    process.exit(1);
  });
  process.on("unhandledRejection", (error) => {
    console.error("Benchmark failed:", error);
    runCleanups();
    process.exit(1);
  });
}

/** A folder under the system's temporary folder, removed on exit. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `bench-${prefix}-`));
  onExit(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export type Child = {
  process: ChildProcess;
  /** Everything the child printed so far (last 200 kB), for error messages. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the child has ended. */
  exited: Promise<number | string>;
  /** SIGTERM to the child's process group, SIGKILL after `graceMs`; resolves when it has ended. */
  stop(graceMs?: number): Promise<void>;
};

/** `evenIfEnded`: also when the group's leader has ended, for the workers it may have left behind. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals, evenIfEnded = false): void {
  if (child.pid === undefined) return;
  if (!evenIfEnded && (child.exitCode !== null || child.signalCode !== null)) return;
  try {
    // Negative pid: the whole process group (npx → node → workers).
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

/** Starts a command in its own process group, registered to be killed when the benchmark exits. */
export function startChild(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; onOutput?: (text: string) => void },
): Child {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    output = (output + text).slice(-200_000);
    options.onOutput?.(text);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const unregister = onExit(() => killGroup(child, "SIGKILL"));
  const exited = new Promise<number | string>((resolve) => {
    child.on("error", (error) => {
      collect(Buffer.from(`\n${error.message}\n`));
      unregister();
      resolve(-1);
    });
    child.on("exit", (code, signal) => {
      unregister();
      // Workers the child left behind in its group.
      killGroup(child, "SIGKILL", true);
      resolve(code ?? signal ?? -1);
    });
  });
  return {
    process: child,
    output: () => output,
    exited,
    async stop(graceMs = 10_000) {
      killGroup(child, "SIGTERM");
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a command to its end within `timeoutMs`; resolves with its duration, rejects with its output's tail. */
export async function runCommand(
  command: string,
  args: string[],
  options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs: number;
    onStart?: (child: ChildProcess) => void;
    onOutput?: (text: string) => void;
  },
): Promise<{ ms: number; output: string }> {
  const started = performance.now();
  const child = startChild(command, args, options);
  options.onStart?.(child.process);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void child.stop(2_000);
  }, options.timeoutMs);
  const code = await child.exited;
  clearTimeout(timer);
  const ms = performance.now() - started;
  if (timedOut) throw new Error(`\`${command} ${args.join(" ")}\` took over ${options.timeoutMs / 1000} s`);
  if (code !== 0) {
    throw new Error(`\`${command} ${args.join(" ")}\` exited with ${code}:\n${tail(child.output(), 25)}`);
  }
  return { ms, output: child.output() };
}

export function tail(text: string, lines: number): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** Rejects after `ms` with a message naming `what`; the work itself is not cancelled (callers stop it). */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers (any status) or `timeoutMs` passes. */
export async function waitForHttp(url: string, timeoutMs: number, child?: Child): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void child?.exited.then(() => {
    ended = true;
  });
  for (;;) {
    if (ended) throw new Error(`the process ended before ${url} answered:\n${tail(child?.output() ?? "", 15)}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      if (Date.now() > deadline) {
        throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${tail(child?.output() ?? "", 15)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

/** The path of a program on PATH, or null (`command -v`). */
export function which(program: string): string | null {
  const result = spawnSync("sh", ["-c", `command -v ${program}`], { encoding: "utf8" });
  const path = result.stdout.trim();
  return result.status === 0 && path ? path : null;
}

/** The resident set of a process, in kB, from /proc (Linux); 0 once it has exited. */
export function residentKb(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The resident memory of a running process, in MB. */
export function rssMb(pid: number): number {
  const kilobytes = residentKb(pid);
  if (!kilobytes) throw new Error(`no VmRSS for process ${pid}`);
  return Math.round(kilobytes / 1024);
}

/** User and system time of a process so far, in ms, from /proc (Linux, 100 ticks a second); 0 once it has exited. */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
