/**
 * `npm start`: builds the site when the build is missing or older than its sources, or was made
 * for another SITE_URL (the prerendered pages hold absolute URLs), then runs the production
 * server (server/main.ts) in this process.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { register, tsImport } from "tsx/esm/api";

const root = join(import.meta.dirname, "..");
const SOURCES = [
  "app",
  "catalogue",
  "content",
  "public",
  "react-router.config.ts",
  "vite.config.ts",
  "package-lock.json",
  "scripts/finish-build.ts",
];

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

const builtAt = join(root, "build/server/index.js");
const stale =
  !existsSync(builtAt) ||
  SOURCES.some(
    (source) => existsSync(join(root, source)) && newestChange(join(root, source)) > statSync(builtAt).mtimeMs,
  );

// build/site-url.txt: the SITE_URL the build was made for (scripts/finish-build.ts). A bad value
// is left to the server's configuration check, which names the problem.
const { parseSiteUrl } = await tsImport("../catalogue/site-url.ts", import.meta.url);
const siteUrl = parseSiteUrl(process.env.SITE_URL);
const builtFor = join(root, "build/site-url.txt");
const otherSiteUrl = siteUrl.ok && (!existsSync(builtFor) || readFileSync(builtFor, "utf8").trim() !== siteUrl.origin);

if (stale || otherSiteUrl) {
  console.log(stale ? "Building the site…" : `Building the site for SITE_URL=${siteUrl.origin}…`);
  const result = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

register();
await import("../server/main.ts");
