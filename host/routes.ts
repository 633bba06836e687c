import { posix } from "node:path";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { RenderHandle } from "../app/lib/page-handle.ts";
import { orUndefined } from "../catalogue/present.ts";

/** One spelling of a path: decoded, dots and doubled slashes resolved, no index.html and no trailing slash. */
export function normalizedPath(pathname: string): string | null {
  const decoded = orUndefined(() => decodeURIComponent(pathname));
  if (decoded === undefined) return null;
  return (
    posix
      .normalize(decoded)
      .replace(/\/index\.html$/, "")
      .replace(/\/+$/, "") || "/"
  );
}

/** React Router's choice of the route an action goes to: an index route only with `?index`. */
function actionTarget<T extends { route: RouteObject }>(matches: readonly T[], search: string): T | undefined {
  const last = matches.at(-1);
  if (last?.route.index && new URLSearchParams(search).getAll("index").includes("")) return last;
  return matches.filter((match, at) => at === 0 || Boolean(match.route.path)).at(-1);
}

/** `/contact.data` and `/_root.data` (a fetcher's post) name the page they post to. */
const pagePath = (pathname: string) => pathname.replace(/(\/_)?\.data$/, "").replace(/^\/_root$/, "/") || "/";

export function routesOf(build: ServerBuild) {
  const routes = Object.values(build.routes).filter((route) => route !== undefined);
  const withAction = new Set(routes.filter((route) => route.module.action).map((route) => route.id));
  const tree = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((route) => route.parentId === parentId)
      .map(({ id, path, index, caseSensitive }) =>
        index ? { id, path, index: true, caseSensitive } : { id, path, caseSensitive, children: tree(id) },
      );
  const root = tree(undefined);
  const matches = (pathname: string) => {
    const path = normalizedPath(pathname);
    return (path !== null && matchRoutes(root, pagePath(path))) || [];
  };
  return {
    /** The `Allow` header: POST only where a route has an action (React Router would render an error page). */
    allowedMethods(url: URL): string {
      const target = actionTarget(matches(url.pathname), url.search);
      return target?.route.id !== undefined && withAction.has(target.route.id) ? "GET, HEAD, POST" : "GET, HEAD";
    },
    renderHandle(pathname: string): RenderHandle {
      const handles = matches(pathname).map((match) => build.routes[match.route.id as string]?.module.handle);
      return (handles.findLast((handle) => typeof handle === "object" && handle !== null) ?? {}) as RenderHandle;
    },
  };
}
