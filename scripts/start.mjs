/**
 * `npm start`: builds the site when the served build (BUILD_DIR's current, catalogue/build-folders.mjs)
 * is missing or older than its sources, or was made for another SITE_URL (the prerendered pages
 * hold absolute URLs) or from other content (the tests build the fixture site,
 * catalogue/content-root.ts), then runs the production server, compiled by the build to its
 * server/main.js, in this process: plain JavaScript, no TypeScript loader at run time.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildRoot, currentBuild, importFromBuild, servedBuild } from "../catalogue/build-folders.mjs";
import { CODE_SOURCES } from "./build-code.mjs";

const root = join(import.meta.dirname, "..");
// catalogue/content-root.ts, in plain JavaScript: this script runs before any build exists.
const contentDir = resolve(root, process.env.CONTENT_ROOT || ".");
const SOURCES = [...CODE_SOURCES, join(contentDir, "content"), join(contentDir, "public")];

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

const builds = buildRoot(root);
const served = servedBuild(builds);
// content-root.txt is the build's last file: it means a whole build, made at its time.
const builtAt = join(served, "content-root.txt");
const stale =
  !existsSync(builtAt) ||
  !existsSync(join(served, "server/main.js")) ||
  SOURCES.some(
    (source) => existsSync(resolve(root, source)) && newestChange(resolve(root, source)) > statSync(builtAt).mtimeMs,
  );

// site-url.txt: the SITE_URL the build was made for (scripts/finish-build.ts). A bad value
// is left to the server's configuration check, which names the problem.
// A stale build is rebuilt whatever SITE_URL says; otherwise the build's own reading of it decides.
const siteUrl = stale
  ? undefined
  : (await importFromBuild(currentBuild(builds), "server/site-url.js")).parseSiteUrl(process.env.SITE_URL);
const builtFor = join(served, "site-url.txt");
const otherSiteUrl = siteUrl?.ok && (!existsSync(builtFor) || readFileSync(builtFor, "utf8").trim() !== siteUrl.origin);

// content-root.txt: whose content the build holds (scripts/finish-build.ts).
const otherContent = !existsSync(builtAt) || readFileSync(builtAt, "utf8").trim() !== contentDir;

if (stale || otherSiteUrl || otherContent) {
  console.log(stale || otherContent ? "Building the site…" : `Building the site for SITE_URL=${siteUrl.origin}…`);
  const result = spawnSync(process.execPath, [join(root, "scripts/build.mjs")], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// From the build's own folder, not through the link: the server then serves the build it came from.
await importFromBuild(currentBuild(builds), "server/main.js");
