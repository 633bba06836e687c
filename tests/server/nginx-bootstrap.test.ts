/**
 * The shipped nginx files for one machine, with Debian's nginx, in the order docs/deploy.md gives:
 * the HTTP file alone passes `nginx -t` before any certificate exists and answers Let's Encrypt's
 * challenge; the TLS file passes once the certificate is there (a self-signed one stands in for
 * certbot's). Only the paths outside the project are moved into a temporary folder.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { findNginx, nginxTempPaths } from "../../bench/nginx.ts";
import { freePort } from "../../bench/processes.ts";
import { makeTempDir, waitFor } from "./helpers.ts";

const root = join(import.meta.dirname, "../..");
let temp: ReturnType<typeof makeTempDir>;
let nginx: string;

beforeAll(() => {
  const found = findNginx();
  if (!found)
    throw new Error("nginx is not installed, and this test runs it: apt-get install -y nginx (.ci/run does it).");
  nginx = found;
  temp = makeTempDir("site-nginx-bootstrap-");
  for (const folder of ["sites-enabled", "webroot/.well-known/acme-challenge", "live"]) {
    mkdirSync(join(temp.path, folder), { recursive: true });
  }
});

afterAll(() => temp.remove());

/** A shipped site file as it would be installed, with the machine's folders moved under the temp folder. */
function install(file: string, name: string, { port }: { port?: number } = {}) {
  let text = readFileSync(join(root, "deploy/nginx", file), "utf8")
    .replaceAll("/etc/nginx/creator-site/", `${join(root, "deploy/nginx")}/`)
    .replaceAll("/var/www/letsencrypt", join(temp.path, "webroot"))
    .replaceAll("/etc/letsencrypt/live/example.com", join(temp.path, "live"));
  // To run it, not only check it: a free port of this machine instead of port 80.
  if (port) text = text.replace("listen 80;", `listen 127.0.0.1:${port};`).replace("listen [::]:80;", "");
  writeFileSync(join(temp.path, "sites-enabled", name), text);
}

/** Debian's nginx.conf in short: an http block that includes every enabled site. */
function writeMainConfig(): string {
  const config = join(temp.path, "nginx.conf");
  writeFileSync(
    config,
    `daemon off;
master_process off;
${process.getuid?.() === 0 ? "user root;" : ""}
pid ${temp.path}/nginx.pid;
error_log ${temp.path}/error.log warn;
events { worker_connections 64; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  ${nginxTempPaths(temp.path)}
  include ${temp.path}/sites-enabled/*;
}
`,
  );
  return config;
}

const check = (config: string) =>
  spawnSync(nginx, ["-t", "-p", temp.path, "-e", join(temp.path, "error.log"), "-c", config], { encoding: "utf8" });

test("before certbot: the HTTP file alone passes nginx -t, answers the challenge and sends visitors to HTTPS", async () => {
  install("creator-site.conf", "creator-site");
  const config = writeMainConfig();
  const checked = check(config);
  expect(checked.status, checked.stderr).toBe(0);

  const port = await freePort();
  install("creator-site.conf", "creator-site", { port });
  writeFileSync(join(temp.path, "webroot/.well-known/acme-challenge/token-123"), "token-123.key");
  const server = spawn(nginx, ["-p", temp.path, "-e", join(temp.path, "error.log"), "-c", config], { stdio: "ignore" });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitFor(
      () =>
        fetch(`${url}/`, { redirect: "manual" }).then(
          () => true,
          () => false,
        ),
      {
        timeoutMs: 15_000,
        what: "nginx to answer",
      },
    );
    const challenge = await fetch(`${url}/.well-known/acme-challenge/token-123`);
    expect(challenge.status).toBe(200);
    expect(await challenge.text()).toBe("token-123.key");
    const page = await fetch(`${url}/notes?sort=rating`, { redirect: "manual", headers: { Host: "example.com" } });
    expect(page.status).toBe(301);
    expect(page.headers.get("location")).toBe("https://example.com/notes?sort=rating");
  } finally {
    server.kill("SIGTERM");
  }
});

test("after certbot: with the certificate in place, both files pass nginx -t; the TLS file names it, so it waits for it", () => {
  install("creator-site.conf", "creator-site");
  install("creator-site-tls.conf", "creator-site-tls");
  const config = writeMainConfig();
  const early = check(config);
  expect(early.status).toBe(1);
  expect(early.stderr).toContain(`cannot load certificate "${join(temp.path, "live")}/fullchain.pem"`);

  const made = spawnSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=example.com"],
      ...["-keyout", join(temp.path, "live/privkey.pem"), "-out", join(temp.path, "live/fullchain.pem")],
    ],
    { encoding: "utf8" },
  );
  expect(made.status, made.stderr).toBe(0);
  const checked = check(config);
  expect(checked.status, checked.stderr).toBe(0);
});
