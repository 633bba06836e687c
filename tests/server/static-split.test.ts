/**
 * The many-machine topology of docs/deploy.md, for real: Debian's nginx with
 * deploy/nginx/static.conf and proxy.conf serves build/client's assets itself and spreads
 * everything else over two production servers (`npm start`) sharing one PostgreSQL database.
 * Sign-ups through nginx end in the shared database; with both instances gone, the assets are
 * still served (they never depended on an instance) while pages answer 502.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Database } from "../../services/db/database.ts";
import { type RunningNginx, startNginx } from "../support/nginx.ts";
import { databaseConfig, makeTempDir, openTestDatabase, TEST_SECRET } from "./helpers.ts";
import { type ProductionServer, root, servedBuild, startProductionServer } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let database: Database;
const instances: ProductionServer[] = [];
let nginx: RunningNginx | undefined;
let proxyUrl = "";

beforeAll(async () => {
  temp = makeTempDir("site-split-");
  const config = await databaseConfig(temp.path);
  database = await openTestDatabase(config);
  for (const name of ["a", "b"]) {
    const dataDir = join(temp.path, name);
    mkdirSync(dataDir);
    instances.push(
      await startProductionServer({
        DATA_DIR: dataDir,
        DATABASE_URL: config.databaseUrl as string,
        SECRET_KEY: TEST_SECRET,
        TRUST_PROXY: "1",
        RATE_LIMIT: "0",
      }),
    );
  }
  nginx = await startNginx({
    dir: join(temp.path, "nginx"),
    upstreams: instances.map((instance) => new URL(instance.origin).host),
    serverLines: [
      `root ${join(servedBuild, "client")};`,
      `include ${join(root, "deploy/nginx/static.conf")};`,
      `include ${join(root, "deploy/nginx/proxy.conf")};`,
    ],
  });
  proxyUrl = nginx.url;
}, 300_000);

afterAll(async () => {
  nginx?.stop();
  for (const instance of instances) await instance.stop();
  await database?.close();
  temp?.remove();
});

const asset = () => {
  const files = readdirSync(join(servedBuild, "client/assets"));
  // The build compresses the files big enough to gain from it.
  const name = files.find((file) => file.endsWith(".js") && files.includes(`${file}.gz`));
  if (!name) throw new Error("The build has no compressed JavaScript asset.");
  return name;
};

test("through nginx, pages and sign-ups reach the instances, which share one PostgreSQL database", async () => {
  const page = await fetch(`${proxyUrl}/`);
  expect(page.status).toBe(200);
  // Only the app sets the page's Content-Security-Policy (with its inline scripts' hashes).
  expect(page.headers.get("content-security-policy")).toMatch(/script-src/);
  for (let index = 0; index < 20; index++) {
    const answer = await fetch(`${proxyUrl}/api/user`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: proxyUrl },
      body: JSON.stringify({ email: `split-${index}@example.com` }),
    });
    expect(answer.status).toBe(201);
  }
  expect(await database.db.selectFrom("subscribers").select("email").execute()).toHaveLength(20);
});

test("nginx serves the hashed assets from build/client itself, immutable and gzipped, with every instance gone", async () => {
  for (const instance of instances) await instance.stop();
  const name = asset();
  const response = await fetch(`${proxyUrl}/assets/${name}`, { headers: { "accept-encoding": "gzip" } });
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(response.headers.get("content-type")).toMatch(/javascript/);
  expect(response.headers.get("content-encoding")).toBe("gzip");
  expect(await response.text()).toBe(readFileSync(join(servedBuild, "client/assets", name), "utf8"));
  expect((await fetch(`${proxyUrl}/assets/no-such-file.js`)).status).toBe(404);
  expect((await fetch(`${proxyUrl}/`)).status).toBe(502);
});
