/**
 * Which methods a path answers, read from the build's routes: GET and HEAD everywhere, POST where
 * a route has an action (a form), every other method nowhere. React Router answers a method it
 * cannot serve with a whole error page, rendered; the host answers 405 before it, in a few bytes.
 */
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

/** The route an action request goes to, as React Router picks it: an index route only with `?index`. */
function actionTarget<T extends { route: RouteObject }>(matches: readonly T[], search: string): T | undefined {
  const last = matches.at(-1);
  if (last?.route.index && new URLSearchParams(search).getAll("index").includes("")) return last;
  return matches.filter((match, at) => at === 0 || Boolean(match.route.path)).at(-1);
}

/** `/contact.data` and `/_root.data` (a fetcher's post) name the page they post to. */
const pagePath = (pathname: string) => pathname.replace(/(\/_)?\.data$/, "").replace(/^\/_root$/, "/") || "/";

type Allow = (url: URL) => string;

function readRoutes(build: ServerBuild): Allow {
  const routes = Object.values(build.routes).filter((route) => route !== undefined);
  const withAction = new Set(routes.filter((route) => route.module.action).map((route) => route.id));
  const tree = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((route) => route.parentId === parentId)
      .map(({ id, path, index, caseSensitive }) =>
        index ? { id, path, index: true, caseSensitive } : { id, path, caseSensitive, children: tree(id) },
      );
  const root = tree(undefined);
  return (url) => {
    const target = actionTarget(matchRoutes(root, pagePath(url.pathname)) ?? [], url.search);
    return target?.route.id !== undefined && withAction.has(target.route.id) ? "GET, HEAD, POST" : "GET, HEAD";
  };
}

const readBuilds = new WeakMap<ServerBuild, Allow>();

/** The `Allow` header of `url` in `build`: "GET, HEAD", with ", POST" where a route there has an action. */
export function allowedMethods(build: ServerBuild, url: URL): string {
  let allow = readBuilds.get(build);
  if (!allow) {
    allow = readRoutes(build);
    readBuilds.set(build, allow);
  }
  return allow(url);
}
