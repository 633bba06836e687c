/**
 * nginx serving the same build/client files, for comparison: one worker process (the Node server
 * is one process too), precompressed files (gzip_static; brotli_static when the module is built
 * in), a page at its own path without a redirect (try_files $uri $uri/index.html).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, startChild, tempDir, waitForHttp, which } from "./processes.ts";
import type { RunningServer } from "./server.ts";

export function findNginx(): string | null {
  return which("nginx");
}

/** True when this nginx has ngx_brotli's static module compiled in (Debian's has not). */
function hasBrotliStatic(nginx: string): boolean {
  const result = spawnSync(nginx, ["-V"], { encoding: "utf8" });
  return /brotli/.test(`${result.stdout}${result.stderr}`);
}

export async function startNginx(nginx: string, clientDir: string): Promise<RunningServer & { brotli: boolean }> {
  const dir = tempDir("nginx");
  for (const temp of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, temp));
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
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
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
