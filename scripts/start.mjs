// `npm start`: builds when there is no whole build, when a source changed since, or when SITE_URL or
// CONTENT_ROOT asks for another site; then runs the server the build compiled. Plain JavaScript.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  BUILD_INFO_FILE,
  buildRoot,
  currentBuild,
  importFromBuild,
  readBuildInfo,
  servedBuild,
} from "../build-tools/build-folders.mjs";
// Node runs this TypeScript file as it is: it holds types alone besides JavaScript.
import { parseSiteUrl } from "../catalogue/site-url.ts";

const root = join(import.meta.dirname, "..");
const contentDir = resolve(root, process.env.CONTENT_ROOT || ".");
const SOURCES = [
  "app",
  "build-tools",
  "catalogue",
  "host",
  "outputs",
  "rules",
  "services",
  "package-lock.json",
  "react-router.config.ts",
  "vite.config.ts",
]
  .map((source) => join(root, source))
  .concat(join(contentDir, "content"), join(contentDir, "public"));

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

const builds = buildRoot(root);
const served = servedBuild(builds);
const built = readBuildInfo(served);
const builtAt = built && statSync(join(served, BUILD_INFO_FILE)).mtimeMs;
// An invalid SITE_URL is left to the server's check, which names the problem.
const siteUrl = parseSiteUrl(process.env.SITE_URL);
const stale =
  !built ||
  SOURCES.some((source) => existsSync(source) && newestChange(source) > builtAt) ||
  built.contentRoot !== contentDir ||
  (siteUrl.ok && siteUrl.origin !== built.siteUrl);

if (stale) {
  console.log("Building the site…");
  const result = spawnSync(process.execPath, [join(root, "build-tools/build.mjs")], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// From the build's own folder, not through the link: the server then serves the build it came from.
await importFromBuild(currentBuild(builds), "server/main.js");
