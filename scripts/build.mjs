/**
 * `npm run build`: the site, built into a new folder of BUILD_DIR and served only once whole
 * (catalogue/build-folders.mjs): a build that fails at any step leaves the served build as it was
 * and ends with one line naming what failed. When the served build was made from the same code
 * (scripts/build-code.mjs), only the content changed: the new build starts from hard links to its files,
 * keeps its bundles and runs the build's last step alone, from its compiled copy
 * (server/finish-build.js), rewriting only the files whose bytes change. Otherwise
 * `react-router build` makes everything, and the last step records the code's fingerprint for
 * the next build. BUILD_CACHE=off always makes everything. Arguments are passed on to
 * `react-router build`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildFailureLine, buildRoot, importFromBuild, startBuild } from "../catalogue/build-folders.mjs";
import { codeFingerprint } from "./build-code.mjs";

const root = join(import.meta.dirname, "..");
const args = process.argv.slice(2);
const fingerprint = codeFingerprint(root, args);

const build = await startBuild(root, buildRoot(root));
try {
  // Both written last by a whole build (scripts/finish-build.ts).
  const recorded =
    build.served && existsSync(join(build.served, "content-root.txt")) && existsSync(join(build.served, "code.json"))
      ? JSON.parse(readFileSync(join(build.served, "code.json"), "utf8")).fingerprint
      : undefined;

  if (process.env.BUILD_CACHE !== "off" && recorded === fingerprint) {
    console.log("Only the content changed since the last build: keeping its bundles.");
    build.linkServed();
    const { rebuildContent } = await importFromBuild(build.folder, "server/finish-build.js");
    await rebuildContent(root, build.folder);
  } else {
    // Vite writes no temporary file to load a CommonJS configuration (vite.build.cjs): node_modules may be read-only.
    const result = spawnSync(process.execPath, [reactRouterCli(), "build", "--config", "vite.build.cjs", ...args], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, BUILD_OUTPUT_DIR: build.bundles },
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
    build.keepBundles();
    const { finishClientBuild } = await importFromBuild(build.folder, "server/finish-build.js");
    const routes = JSON.parse(readFileSync(join(build.folder, "routes.json"), "utf8"));
    await finishClientBuild(root, build.folder, routes, fingerprint);
  }
  build.finish();
} catch (error) {
  console.error(buildFailureLine(error));
  process.exit(1);
}

/** The `react-router` command, as @react-router/dev declares it: its file moved between majors. */
function reactRouterCli() {
  const dev = join(root, "node_modules/@react-router/dev");
  return join(dev, JSON.parse(readFileSync(join(dev, "package.json"), "utf8")).bin["react-router"]);
}
