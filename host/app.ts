import { statSync } from "node:fs";
import { extname } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { etag } from "hono/etag";
import { secureHeaders } from "hono/secure-headers";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { backendContext, clientAddress } from "../app/lib/form-actions.server.ts";
import { ownInlineHashes } from "../app/lib/inline-hashes.server.ts";
import { orUndefined } from "../catalogue/present.ts";
import { WEBMENTION_PATH } from "../outputs/linked-files.ts";
import { FORM_BODY_LIMIT_BYTES } from "../rules/forms.ts";
import type { Backend } from "../services/backend.ts";
import { sentFormIn } from "../services/forms/sent.ts";
import { createApi, isClientAbort } from "./api.ts";
import { checkOrigin } from "./forwarded.ts";
import {
  busyAnswer,
  createRenderCache,
  createRenderLimiter,
  filteredListKey,
  keptRender,
  pickEncoding,
  type Rendered,
} from "./render-cache.ts";
import { createRepliedPages } from "./replied-pages.ts";
import { normalizedPath, routesOf } from "./routes.ts";
import { contentSecurityPolicy, readInlineHashes } from "./security.ts";
import { createWebmentionDoor } from "./webmention.ts";

export type HttpOptions = {
  build: ServerBuild;
  mode: "production" | "development";
  clientDir?: string;
  siteUrl: string;
  backend: Backend;
  clientIp: (c: Context) => string | undefined;
  ownOrigin: (c: Context) => string | undefined;
  renders: { concurrency: number; cacheBytes: number };
  log?: (message: string) => void;
};

/** Mail providers post RFC 8058 one-click unsubscribes from their own machines: the token is the credential. */
const ONE_CLICK_UNSUBSCRIBE_PATH = "/updates/unsubscribe";

export const PREFETCH_FRESH_SECONDS = 30;

/** WebFinger, NodeInfo and the actor's own paths (services/federation/site-actor.ts). */
const FEDERATION_PATHS = /^\/(\.well-known\/(webfinger|nodeinfo)$|nodeinfo\/|ap\/)/;

/** Mastodon refuses activities over 1 MB too. */
const ACTIVITY_LIMIT_BYTES = 1024 * 1024;

/** Linux's longest file name and a bound on the path a disk lookup is made for. */
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 1024;

function unreadablePath(pathname: string): string | null {
  const decoded = orUndefined(() => decodeURIComponent(pathname));
  if (decoded === undefined) return "bad percent-encoding";
  if (decoded.includes("\0")) return "a NUL byte";
  if (Buffer.byteLength(decoded) > MAX_PATH_BYTES) return `longer than ${MAX_PATH_BYTES} bytes`;
  if (decoded.split("/").some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) {
    return `a segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return null;
}

/** Chromium does not reuse a prefetched answer that must be revalidated, so a prefetch may keep it briefly. */
function cacheControl(c: Context, immutable: boolean): string {
  if (immutable) return "public, max-age=31536000, immutable";
  if (c.req.header("Sec-Purpose")?.startsWith("prefetch")) return `private, max-age=${PREFETCH_FRESH_SECONDS}`;
  return "public, max-age=0, must-revalidate";
}

/** Types Hono's table lacks. */
const FILE_TYPES: Record<string, string> = {
  ".data": "text/x-script",
  ".atom": "application/atom+xml; charset=utf-8",
};

type Policy = (hashes: Rendered["inlineHashes"]) => string;

function answerRendered(c: Context, policy: Policy, page: Rendered, status: 200 | 404 = 200): Response {
  const encoding = pickEncoding(c.req.header("Accept-Encoding"));
  const body = page.bodies[encoding];
  const headers: Record<string, string> = {
    "Content-Type": page.contentType,
    "Cache-Control": status === 200 ? cacheControl(c, false) : "no-store",
    Vary: "Accept-Encoding",
    "Content-Length": String(body.length),
  };
  if (status === 200) headers.ETag = `"${page.etag}${encoding === "identity" ? "" : `-${encoding}`}"`;
  if (encoding !== "identity") headers["Content-Encoding"] = encoding;
  if (page.contentType.startsWith("text/html")) headers["Content-Security-Policy"] = policy(page.inlineHashes);
  return c.body(new Uint8Array(body), status, headers);
}

export function createHttpApp(options: HttpOptions): Hono {
  const { build, mode, clientDir, siteUrl, backend, clientIp, ownOrigin, renders } = options;
  const log = options.log ?? console.error;
  // Every spelling of a path routes and serves as one: `/notes/`, `/%6eotes`, `/notes//index.html`.
  const app = new Hono({
    getPath: (request) => {
      const { pathname } = new URL(request.url);
      return normalizedPath(pathname) ?? pathname;
    },
  });
  const handleRequest = createRequestHandler(build, mode);
  const loopbackFollow = backend.config.federationAllowLoopback;
  const policy: Policy = (hashes) => contentSecurityPolicy(hashes, { loopbackFollow });
  const routes = routesOf(build);

  // The Content-Security-Policy is per page, with the hashes of its own inline scripts.
  app.use(
    secureHeaders({
      referrerPolicy: "strict-origin-when-cross-origin",
      permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [], usb: [] },
      xFrameOptions: "DENY",
      strictTransportSecurity: siteUrl.startsWith("https:") ? "max-age=31536000; includeSubDomains" : false,
      crossOriginResourcePolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );

  // A sender asking with HEAD finds the endpoint without reading the page, as it would in the page's <link>.
  const webmentionLink = `<${new URL(WEBMENTION_PATH, siteUrl).href}>; rel="webmention"`;
  app.use(async (c, next) => {
    await next();
    if (c.res.headers.get("Content-Type")?.startsWith("text/html")) c.res.headers.append("Link", webmentionLink);
  });

  app.use(async (c, next) => {
    const { pathname } = new URL(c.req.url);
    const unreadable = unreadablePath(pathname);
    if (!unreadable) return next();
    log(`Not found, ${unreadable}: ${pathname.length > 80 ? `${pathname.slice(0, 80)}…` : pathname}`);
    return c.text("Not found.", 404, { "Cache-Control": "no-store" });
  });

  // Fedify answers its own paths; an HTML request for them, or any other path, goes on to the site.
  const federation = backend.federation.federation;
  app.use(
    "/ap/*",
    bodyLimit({ maxSize: ACTIVITY_LIMIT_BYTES, onError: (c) => c.text("This activity is too large.", 413) }),
  );
  app.use(async (c, next) => {
    if (!FEDERATION_PATHS.test(c.req.path)) return next();
    let passOn = false;
    const pass = () => {
      passOn = true;
      return new Response(null, { status: 404 });
    };
    const response = await federation.fetch(c.req.raw, {
      contextData: undefined,
      onNotFound: pass,
      onNotAcceptable: pass,
    });
    if (!passOn) return response;
    return next();
  });

  // Before the origin check and the method rule: other sites' servers post webmentions, and no route serves them.
  app.route("/", createWebmentionDoor(backend.webmentions));

  // React Router would answer a method it cannot serve with a rendered error page.
  app.use(async (c, next) => {
    const { method, path } = c.req;
    if (method === "GET" || method === "HEAD" || path.startsWith("/api/")) return next();
    const allow = routes.allowedMethods(new URL(c.req.url));
    if (method === "POST" && allow.endsWith("POST")) return next();
    return c.text("Method not allowed.", 405, { Allow: allow, "Cache-Control": "no-store" });
  });

  app.route("/", createApi({ backend, siteUrl, clientIp, ownOrigin, log }));

  function rendered(request: Request, c?: Context): Promise<Response> {
    const context = new RouterContextProvider();
    context.set(clientAddress, c && clientIp(c));
    context.set(backendContext, backend);
    return handleRequest(request.method === "HEAD" ? new Request(request, { method: "GET" }) : request, context);
  }

  async function render(c: Context, request: Request): Promise<Response> {
    const response = await rendered(request, c);
    if (!response.headers.get("Content-Type")?.startsWith("text/html")) return response;
    const { html, hashes } = ownInlineHashes(await response.text());
    const headers = new Headers(response.headers);
    headers.set("Content-Type", "text/html; charset=utf-8");
    if (mode === "production") headers.set("Content-Security-Policy", policy(hashes));
    headers.set("Cache-Control", "no-store");
    headers.delete("Content-Length");
    return new Response(html, { status: response.status, headers });
  }

  // The page a form post redirects to renders at once, with its outcome; a forged token gets the plain page.
  const sentPage = (c: Context) => sentFormIn(new URL(c.req.url), backend.config.secretKey) !== undefined;
  const limiter = createRenderLimiter(renders.concurrency);
  const renderClient = (c: Context) => clientIp(c) ?? "";

  if (clientDir) {
    const lists = createRenderCache(renders.cacheBytes, limiter);
    const replied = createRepliedPages(backend.database.db, { log });
    const hashesOf = readInlineHashes(clientDir);
    const servedFiles = new WeakMap<Context, string>();
    const serveFile = serveStatic({
      root: clientDir,
      precompressed: true,
      onFound: (file, c) => void servedFiles.set(c, file),
    });
    let notFound: Promise<Rendered[]> | undefined;
    // Rendered once per build on first need: a flood of unknown paths costs no render each.
    const notFoundPages = () => {
      notFound ??= Promise.all(
        ["/not-found", "/not-found.data"].map(async (path) =>
          keptRender(await rendered(new Request(new URL(path, siteUrl)))),
        ),
      ).catch((error) => {
        notFound = undefined;
        throw error;
      });
      return notFound;
    };

    app.on(["GET", "HEAD"], "*", etag(), async (c, next) => {
      const { path } = c.req;
      const handle = routes.renderHandle(path);
      if (handle.perRequest || sentPage(c)) return next();
      const post = path.replace(/\.data$/, "");
      const replies = await replied.versionOf(post);
      // A post with approved replies is rendered with them and kept until they change; its data is rendered per request.
      if (replies !== undefined && post !== path) return next();
      const key =
        replies !== undefined
          ? `${path}#replies-${replies}`
          : filteredListKey(path, new URL(c.req.url).search, handle.query);
      if (key) {
        // At the public origin, never the request's Host: a cached page is shared by all visitors.
        const canonical = new Request(new URL(replies === undefined ? key : path, siteUrl), {
          headers: { Accept: "text/html" },
        });
        const cached = await lists
          .page(key, renderClient(c), () => rendered(canonical, c))
          .catch((error: unknown) => {
            if (replies === undefined) throw error;
            log(`[replies] ${path} is served as prerendered, without its replies: ${error}`);
            return undefined;
          });
        if (cached) return cached.kind === "busy" ? busyAnswer(c) : answerRendered(c, policy, cached.page);
      }
      const response = /\.(br|gz)$/.test(path) ? undefined : await serveFile(c, async () => {});
      const file = servedFiles.get(c);
      if (!response || !file) {
        const [page, data] = (await notFoundPages()) as [Rendered, Rendered];
        return answerRendered(c, policy, path.endsWith(".data") ? data : page, 404);
      }
      const original = file.replace(/\.(br|gz)$/, "");
      const { size, mtimeMs } = statSync(file);
      const encoding = response.headers.get("Content-Encoding");
      response.headers.set("ETag", `"${size.toString(36)}-${mtimeMs.toString(36)}${encoding ? `-${encoding}` : ""}"`);
      response.headers.set("Cache-Control", cacheControl(c, path.startsWith("/assets/")));
      response.headers.set("Vary", "Accept-Encoding");
      const type = FILE_TYPES[extname(original)];
      if (type) response.headers.set("Content-Type", type);
      if (original.endsWith(".html")) {
        response.headers.set("Content-Security-Policy", policy(hashesOf(original)));
      }
      return response;
    });
  }

  // Not Hono's `csrf`: it refuses a post with neither Origin nor Sec-Fetch-Site (curl, a script).
  app.on(["POST", "PUT", "PATCH", "DELETE"], "*", async (c, next) => {
    if (c.req.path === ONE_CLICK_UNSUBSCRIBE_PATH) return next();
    const origin = checkOrigin(c.req.raw.headers, { siteUrl, ownOrigin: ownOrigin(c) });
    if (!origin.refused) return next();
    log(`Refused ${c.req.method} ${c.req.path}: ${origin.reason}`);
    return c.text("Cross-site form posts are not accepted.", 403);
  });
  app.use(bodyLimit({ maxSize: FORM_BODY_LIMIT_BYTES, onError: (c) => c.text("This form post is too large.", 413) }));

  // Writes (posts, the token pages, a post's outcome) render at once, never refused because reads are busy.
  app.all("*", async (c) => {
    const write = !["GET", "HEAD"].includes(c.req.method) || routes.renderHandle(c.req.path).perRequest || sentPage(c);
    if (write) {
      if (c.req.method !== "POST" || c.req.path !== ONE_CLICK_UNSUBSCRIBE_PATH) return render(c, c.req.raw);
      // React Router refuses an action whose Origin is not the request's own, as a provider's may be.
      const headers = new Headers(c.req.raw.headers);
      headers.delete("Origin");
      return render(c, new Request(c.req.raw, { headers }));
    }
    const release = await limiter.acquire(renderClient(c));
    if (!release) return busyAnswer(c);
    try {
      return await render(c, c.req.raw);
    } finally {
      release();
    }
  });

  app.onError((error, c) => {
    if (isClientAbort(c.req.raw, error)) return c.text("The request was cut off before its end.", 400);
    console.error(error);
    return c.text("Something went wrong. Please try again.", 500);
  });

  return app;
}
