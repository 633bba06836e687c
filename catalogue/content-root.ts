import { resolve } from "node:path";

export function contentRoot(projectRoot: string, environment: NodeJS.ProcessEnv = process.env): string {
  return resolve(projectRoot, environment.CONTENT_ROOT || ".");
}
