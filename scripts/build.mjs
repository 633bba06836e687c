/**
 * `npm run build`: the site in build/. When the last build was whole and made from the same code
 * (scripts/build-code.mjs), only the content changed: its bundles are kept and the build's last
 * step runs again alone, from its compiled copy (build/server/finish-build.js), rewriting only the
 * files whose bytes change. Otherwise `react-router build` makes everything, and the last step
 * records the code's fingerprint for the next build. BUILD_CACHE=off always makes everything.
 * Arguments are passed on to `react-router build`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { codeFingerprint } from "./build-code.mjs";

const root = join(import.meta.dirname, "..");
const buildDir = join(root, "build");
const args = process.argv.slice(2);
const fingerprint = codeFingerprint(root, args);

// Both written last by a whole build (scripts/finish-build.ts): a build stopped midway keeps nothing.
const contentRootFile = join(buildDir, "content-root.txt");
const codeRecordFile = join(buildDir, "code.json");
const recorded =
  existsSync(contentRootFile) && existsSync(codeRecordFile)
    ? JSON.parse(readFileSync(codeRecordFile, "utf8")).fingerprint
    : undefined;
rmSync(contentRootFile, { force: true });

if (process.env.BUILD_CACHE !== "off" && recorded === fingerprint) {
  console.log("Only the content changed since the last build: keeping its bundles.");
  const { rebuildContent } = await import(pathToFileURL(join(buildDir, "server/finish-build.js")).href);
  await rebuildContent(root, buildDir);
} else {
  rmSync(codeRecordFile, { force: true });
  const result = spawnSync(process.execPath, [join(root, "node_modules/@react-router/dev/bin.js"), "build", ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, BUILD_CODE_FINGERPRINT: fingerprint },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
