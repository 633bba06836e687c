/**
 * What the bundles are made from: every file of the code and its configuration, the locked
 * packages, Node's version and the settings the bundler reads. Plain JavaScript: `npm start` and
 * `npm run build` read it before any build exists.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** The code's folders and files, relative to the project. */
export const CODE_SOURCES = [
  "app",
  "catalogue",
  "rules",
  "server",
  "host",
  "scripts",
  "react-router.config.ts",
  "vite.config.ts",
  "vite.build.cjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

/** The files under `path` (itself when a file), sorted. */
function filesOf(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * A hash of everything the bundles depend on. Broad on purpose: any file added or changed under a
 * folder of the code counts, whether or not the bundles import it, so the hash cannot miss a change.
 */
export function codeFingerprint(projectRoot, args, environment = process.env) {
  const digest = createHash("sha256");
  const settings = {
    node: process.version,
    args,
    siteUrl: environment.SITE_URL ?? "",
    contentRoot: resolve(projectRoot, environment.CONTENT_ROOT || "."),
    nodeEnv: environment.NODE_ENV ?? "",
  };
  digest.update(JSON.stringify(settings));
  for (const file of CODE_SOURCES.flatMap((source) => filesOf(join(projectRoot, source)))) {
    digest.update(`\0${relative(projectRoot, file)}\0`).update(readFileSync(file));
  }
  return digest.digest("hex");
}
