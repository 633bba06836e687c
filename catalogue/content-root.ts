// No imports: the compiled server and `npm start` read it too.
import { resolve } from "node:path";

export function contentRoot(projectRoot: string, environment: NodeJS.ProcessEnv = process.env): string {
  return resolve(projectRoot, environment.CONTENT_ROOT || ".");
}

export const CONTENT_ROOT_FILE = "content-root.txt";

export const OWNER_FILE = "owner.json";

// Read, not bundled, so a build where only the content changed keeps the server bundles.
export const CONTENT_FILES_FILE = "content-files.json";
