import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";

// Each test starts real server processes, which take a while on a busy machine.
test.describe.configure({ timeout: 90_000 });

function startServer(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number>;
} {
  const child = spawn(process.execPath, ["--import", "tsx", "host/main.ts"], {
    cwd: process.cwd(),
    env: { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), "site-process-")), ...env },
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  return { child, output: () => output, exited };
}

test.describe("the server process", () => {
  test("a bad configuration value stops the start with a message naming it", async () => {
    const server = startServer({ PORT: "abc" });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PORT="abc" must be a number');
    const badUrl = startServer({ PORT: "0", SMTP_URL: "not a url" });
    expect(await badUrl.exited).toBe(1);
    expect(badUrl.output()).toContain("SMTP_URL");
  });

  test("the server serves the build and stops cleanly on SIGTERM", async () => {
    // Port 0: the system's choice, which the server names, so no other process on the machine can hold it.
    const server = startServer({ PORT: "0", HOST: "127.0.0.1" });
    await expect.poll(() => server.output(), { timeout: 60_000 }).toContain("Serving on");
    const port = /Serving on http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())?.[1];
    expect(Number(port)).toBeGreaterThan(0);
    const response = await fetch(`http://127.0.0.1:${port}/notes/atomic-habits`, { redirect: "manual" });
    expect(response.status).toBe(200);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("SIGTERM: stopping");
  });
});
