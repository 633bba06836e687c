/**
 * nginx serving the same build/client files, for comparison: one worker process (the Node server
 * is one process too), precompressed files (gzip_static; brotli_static when the module is built
 * in), a page at its own path without a redirect (try_files $uri $uri/index.html).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, startChild, tempDir, waitForHttp, which } from "./processes.ts";
import type { RunningServer } from "./server.ts";

/** Debian installs nginx in /usr/sbin, which is on the PATH of root only. */
export function findNginx(): string | null {
  return ["/usr/sbin/nginx", "/usr/bin/nginx"].find((candidate) => existsSync(candidate)) ?? which("nginx");
}

const TEMP_FOLDERS = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"] as const;

/** Makes nginx's temporary folders under `dir` and gives the lines of an http block that use them (not /var/lib/nginx). */
export function nginxTempPaths(dir: string): string {
  for (const folder of TEMP_FOLDERS) mkdirSync(join(dir, folder), { recursive: true });
  return TEMP_FOLDERS.map((folder) => `${folder}_temp_path ${dir}/${folder};`).join("\n  ");
}

/** True when this nginx has ngx_brotli's static module compiled in (Debian's has not). */
function hasBrotliStatic(nginx: string): boolean {
  const result = spawnSync(nginx, ["-V"], { encoding: "utf8" });
  return /brotli/.test(`${result.stdout}${result.stderr}`);
}

export async function startNginx(nginx: string, clientDir: string): Promise<RunningServer & { brotli: boolean }> {
  const dir = tempDir("nginx");
  const port = await freePort();
  const brotli = hasBrotliStatic(nginx);
  const config = `
daemon off;
master_process on;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  ${nginxTempPaths(dir)}
  types {
    text/html html;
    text/javascript js;
    text/css css;
    image/svg+xml svg;
    image/png png;
    application/json json;
    text/x-script data;
  }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
    root ${clientDir};
    gzip_static on;
    ${brotli ? "brotli_static on;" : ""}
    location / { try_files $uri $uri/index.html =404; }
  }
}
`;
  const configFile = join(dir, "nginx.conf");
  writeFileSync(configFile, config);
  const child = startChild(nginx, ["-p", dir, "-e", join(dir, "error.log"), "-c", configFile], { cwd: dir });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/`, 15_000, child);
  } catch (error) {
    await child.stop(2_000);
    throw error;
  }
  return { url, brotli, stop: () => child.stop(5_000) };
}
