/**
 * What the build's routes say about a URL, so that the host keeps no table of its own: which
 * methods it answers (POST only where a route has an action; React Router would answer any other
 * with a whole rendered error page) and how its page is served (the route's `handle`).
 */
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { RenderHandle } from "../app/lib/page-handle.ts";

/** The route an action request goes to, as React Router picks it: an index route only with `?index`. */
function actionTarget<T extends { route: RouteObject }>(matches: readonly T[], search: string): T | undefined {
  const last = matches.at(-1);
  if (last?.route.index && new URLSearchParams(search).getAll("index").includes("")) return last;
  return matches.filter((match, at) => at === 0 || Boolean(match.route.path)).at(-1);
}

/** `/contact.data` and `/_root.data` (a fetcher's post) name the page they post to. */
const pagePath = (pathname: string) => pathname.replace(/(\/_)?\.data$/, "").replace(/^\/_root$/, "/") || "/";

export type Routes = {
  /** The `Allow` header of `url`: "GET, HEAD", with ", POST" where a route there has an action. */
  allowedMethods(url: URL): string;
  /** How the page at `pathname` (any spelling, its data too) is served. */
  renderHandle(pathname: string): RenderHandle;
};

function readRoutes(build: ServerBuild): Routes {
  const routes = Object.values(build.routes).filter((route) => route !== undefined);
  const withAction = new Set(routes.filter((route) => route.module.action).map((route) => route.id));
  const tree = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((route) => route.parentId === parentId)
      .map(({ id, path, index, caseSensitive }) =>
        index ? { id, path, index: true, caseSensitive } : { id, path, caseSensitive, children: tree(id) },
      );
  const root = tree(undefined);
  const matches = (pathname: string) => matchRoutes(root, pagePath(pathname)) ?? [];
  return {
    allowedMethods(url) {
      const target = actionTarget(matches(url.pathname), url.search);
      return target?.route.id !== undefined && withAction.has(target.route.id) ? "GET, HEAD, POST" : "GET, HEAD";
    },
    renderHandle(pathname) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(pathname).replace(/\/+/g, "/");
      } catch {
        return {};
      }
      const handles = matches(decoded).map((match) => build.routes[match.route.id as string]?.module.handle);
      return (handles.findLast((handle) => typeof handle === "object" && handle !== null) ?? {}) as RenderHandle;
    },
  };
}

const readBuilds = new WeakMap<ServerBuild, Routes>();

export function routesOf(build: ServerBuild): Routes {
  let routes = readBuilds.get(build);
  if (!routes) {
    routes = readRoutes(build);
    readBuilds.set(build, routes);
  }
  return routes;
}
