/**
 * Debian's nginx in front of production servers, as docs/deploy.md sets it up: a minimal
 * nginx.conf around the deployed lines (deploy/nginx/*.conf), every file under one folder,
 * one process in the foreground. `.ci/run` installs nginx; without it the tests that need it fail
 * and say so.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findNginx, nginxTempPaths } from "../../bench/nginx.ts";
import { freePort } from "../../bench/processes.ts";
import { waitFor } from "../server/helpers.ts";

export type RunningNginx = { url: string; stop(): void };

export type NginxSetup = {
  /** An empty folder for the configuration, logs and temporary files. */
  dir: string;
  /** The `creator_site` upstream's servers, as host:port. */
  upstreams: string[];
  /** The lines of the one server block after its `listen`. */
  serverLines: string[];
};

function nginxConfig(dir: string, listenPort: number, { upstreams, serverLines }: NginxSetup): string {
  return `
daemon off;
master_process off;
${process.getuid?.() === 0 ? "user root;" : ""}
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  # Debian's own nginx.conf includes the types in its http block, as here.
  include /etc/nginx/mime.types;
  access_log off;
  ${nginxTempPaths(dir)}
  upstream creator_site {
${upstreams.map((upstream) => `    server ${upstream} max_fails=3 fail_timeout=10s;`).join("\n")}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${listenPort};
${serverLines.map((line) => `    ${line}`).join("\n")}
  }
}
`;
}

function installedNginx(): string {
  const found = findNginx();
  if (!found)
    throw new Error("nginx is not installed, and this test runs it: apt-get install -y nginx (.ci/run does it).");
  return found;
}

/** Checks the configuration with `nginx -t`, starts nginx and waits until it answers `/`. */
export async function startNginx(setup: NginxSetup): Promise<RunningNginx> {
  const binary = installedNginx();
  const { dir } = setup;
  const port = await freePort();
  const configFile = join(dir, "nginx.conf");
  const errorLog = join(dir, "error.log");
  writeFileSync(configFile, nginxConfig(dir, port, setup));
  const checked = spawnSync(binary, ["-t", "-p", dir, "-e", errorLog, "-c", configFile], { encoding: "utf8" });
  if (checked.status !== 0) throw new Error(`nginx -t refused the configuration:\n${checked.stderr}`);
  const nginx: ChildProcess = spawn(binary, ["-p", dir, "-e", errorLog, "-c", configFile], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (nginx.exitCode !== null) throw new Error(`nginx exited:\n${readFileSync(errorLog, "utf8")}`);
      return fetch(`${url}/`).then(
        (response) => response.ok,
        () => false,
      );
    },
    { timeoutMs: 15_000, what: "nginx to answer" },
  );
  return { url, stop: () => nginx.kill("SIGTERM") };
}
