/**
 * The folder that holds the site's content/ and public/: `CONTENT_ROOT` (relative to the project),
 * else the project itself. The browser tests build the site from tests/fixtures, never from the
 * owner's content, so that an owner's edit cannot turn them red. No imports: the compiled server
 * and `npm start` read it too.
 */
import { resolve } from "node:path";

export function contentRoot(projectRoot: string, environment: NodeJS.ProcessEnv = process.env): string {
  return resolve(projectRoot, environment.CONTENT_ROOT || ".");
}

/** The file in build/ that names the content root the build was made from (scripts/finish-build.ts writes it). */
export const CONTENT_ROOT_FILE = "content-root.txt";

/** The file in build/ that holds the owner's name and address in that content, so the server reads no content/ folder. */
export const OWNER_FILE = "owner.json";

/**
 * The file in build/server that holds the published content files: the server build reads it
 * instead of bundling them, so that a build where only the content changed rewrites it and keeps
 * the bundles (scripts/build.mjs).
 */
export const CONTENT_FILES_FILE = "content-files.json";
