/**
 * Vitest global setup of the "postgres" project (vitest.config.ts): one PostgreSQL server for the
 * whole run, its URL handed to the tests through `inject("postgresAdminUrl")`.
 */
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startPostgres();
  project.provide("postgresAdminUrl", server.adminUrl);
  return () => server.stop();
}
