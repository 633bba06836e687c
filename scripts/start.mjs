/**
 * `npm start`: builds the site when the build is missing or older than its sources, then runs
 * the production server (server/main.ts) in this process.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { register } from "tsx/esm/api";

const root = join(import.meta.dirname, "..");
const SOURCES = [
  "app",
  "catalogue",
  "content",
  "public",
  "react-router.config.ts",
  "vite.config.ts",
  "package-lock.json",
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

if (stale) {
  console.log("Building the site…");
  const result = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

register();
await import("../server/main.ts");
