import * as build from "virtual:react-router/server-build";
import { prepareSiteSearch } from "../app/search.server.ts";
import { createHttpApp, type HttpOptions } from "./app.ts";

/** The build's entry: React Router's server build and the host around it, one copy of every module. */
export function createHost(options: Omit<HttpOptions, "build">) {
  prepareSiteSearch();
  return createHttpApp({ ...options, build });
}
