// `npm run build`: one React Router build into a new folder, served only once whole (build-folders.mjs).
import { join } from "node:path";
import { createBuilder } from "vite";
import { buildFailureLine, buildRoot, startBuild } from "./build-folders.mjs";

const root = join(import.meta.dirname, "..");
process.chdir(root);
const build = await startBuild(root, buildRoot(root));
try {
  process.env.BUILD_OUTPUT_DIR = build.bundles;
  // What `react-router build` runs, in this process so that a failure ends in one line. A CommonJS
  // configuration (vite.build.cjs) is compiled in memory: node_modules may be read-only.
  await (await createBuilder({ root, configFile: join(root, "vite.build.cjs") })).buildApp();
  build.finish();
  // The server build loaded for prerendering may hold timers of its own: the build is done.
  process.exit(0);
} catch (error) {
  console.error(buildFailureLine(error));
  process.exit(1);
}
