/**
 * The HTTP layer: security headers on everything, the API, the built files (the not-found page
 * among them, with a 404), and React Router for what only a render can answer: form posts, the
 * newsletter's token pages and filtered lists.
 *
 * Two lanes. Writes (every POST, the token pages: the confirm link and the unsubscribe page) are
 * rendered at once, never refused because reads are busy; the forms' rate limit bounds them per
 * visitor. Reads that need a render (a filtered list not yet cached) share RENDER_CONCURRENCY and
 * beyond it get a 503 with Retry-After.
 */
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { etag } from "hono/etag";
import { secureHeaders } from "hono/secure-headers";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { backendContext, clientAddress } from "../app/lib/form-actions.server.ts";
import { FORM_BODY_LIMIT_BYTES } from "../rules/forms.ts";
import type { Backend } from "../server/backend.ts";
import { createApi, isClientAbort } from "./api.ts";
import { checkOrigin } from "./forwarded.ts";
import { busyAnswer, createRenderCache, createRenderLimiter, filteredListKey } from "./render-cache.ts";
import { routesOf } from "./routes.ts";
import { contentSecurityPolicy, ownInlineHashes } from "./security.ts";
import {
  createStaticFiles,
  encodedETag,
  type NotFoundFiles,
  pickEncoding,
  type StaticFile,
  unreadablePath,
} from "./static.ts";

export type HttpOptions = {
  /** The React Router build; in development a function that loads the current one. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development";
  /** build/client, served before React Router; absent in development, where Vite serves files. */
  clientDir?: string;
  /** Renders a filtered list's canonical URL off the main thread (server/http/render-pool.ts); absent: here. */
  renderList?: (url: string) => Promise<Response>;
  /** The build's not-found page and data, the answer to a GET of any path with no file (with clientDir). */
  notFound?: NotFoundFiles;
  siteUrl: string;
  /** The services the JSON API and the routes' loaders and actions call. */
  backend: Backend;
  /** The visitor's address, for the forms' rate limit (server/http/forwarded.ts says whom to believe). */
  clientIp: (c: Context) => string | undefined;
  /** The origin the request was addressed to, accepted as `Origin` besides siteUrl. */
  ownOrigin: (c: Context) => string | undefined;
  /** Renders at once (more get a 503) and the bytes of rendered filtered lists kept (server/http/render-cache.ts). */
  renders: { concurrency: number; cacheBytes: number };
  log?: (message: string) => void;
};

/**
 * The one path a foreign server may POST to: mail providers send RFC 8058 one-click unsubscribes
 * from their own machines, with no cookie and no Origin of ours. The token in the URL is the
 * credential, and the action only ever takes its own subscriber off the list.
 */
export const ONE_CLICK_UNSUBSCRIBE_PATH = "/updates/unsubscribe";

const isOneClickUnsubscribe = (c: Context) => c.req.method === "POST" && c.req.path === ONE_CLICK_UNSUBSCRIBE_PATH;

/** React Router refuses an action whose Origin is not the request's own, as a provider's POST may carry. */
function withoutOrigin(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete("Origin");
  return new Request(request, { headers });
}

/** How long the browser may keep a page or its data fetched ahead of a click, without asking again. */
export const PREFETCH_FRESH_SECONDS = 30;

/**
 * Hashed build assets never change. A page or a page's data is checked again on every use, except
 * the copy a prefetch fetched (`Sec-Purpose: prefetch`) when the pointer came to its link: Chromium
 * does not reuse a prefetched response that must be revalidated, so the click would fetch it again.
 */
function cacheControl(c: Context, file: StaticFile): string {
  if (file.immutable) return "public, max-age=31536000, immutable";
  if (c.req.header("Sec-Purpose")?.startsWith("prefetch")) return `private, max-age=${PREFETCH_FRESH_SECONDS}`;
  return "public, max-age=0, must-revalidate";
}

/**
 * A prerendered file or a cached render: compressed, with its page's CSP (Hono's `etag` answers a
 * matching If-None-Match with a 304). The not-found page (404) is never stored by a cache, as a
 * rendered one was not.
 */
function answerFile(c: Context, file: StaticFile, status: 200 | 404 = 200): Response {
  const encoding = pickEncoding(c.req.header("Accept-Encoding"), file);
  const headers: Record<string, string> = {
    "Content-Type": file.contentType,
    "Cache-Control": status === 200 ? cacheControl(c, file) : "no-store",
    Vary: "Accept-Encoding",
  };
  if (status === 200) headers.ETag = encodedETag(file.etag, encoding);
  if (file.inlineHashes) headers["Content-Security-Policy"] = contentSecurityPolicy(file.inlineHashes);
  if (encoding !== "identity") headers["Content-Encoding"] = encoding;
  const body = file.bodies[encoding] ?? file.bodies.identity;
  headers["Content-Length"] = String(body.length);
  if (c.req.method === "HEAD") return c.body(null, status, headers);
  return c.body(new Uint8Array(body), status, headers);
}

/** A path as a log line shows it: its beginning only, whatever its length. */
const loggedPath = (path: string) => (path.length > 80 ? `${path.slice(0, 80)}…` : path);

export function createHttpApp(options: HttpOptions): Hono {
  const { build, mode, clientDir, notFound, renderList, siteUrl, backend, clientIp, ownOrigin, renders } = options;
  const log = options.log ?? console.error;
  const app = new Hono();
  const handleRequest = createRequestHandler(build, mode);
  // In development the build is reloaded after an edit, its routes with it.
  const routes = async () => routesOf(typeof build === "function" ? await build() : build);

  // The Content-Security-Policy is not among them: it is per page, with the hashes of that page's inline scripts.
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

  app.use("*", async (c, next) => {
    const pathname = new URL(c.req.url).pathname;
    const unreadable = unreadablePath(pathname);
    if (!unreadable) return next();
    log(`Not found, ${unreadable}: ${loggedPath(pathname)}`);
    return c.text("Not found.", 404, { "Cache-Control": "no-store" });
  });

  // Before any render: React Router would answer a method it cannot serve with a rendered error page.
  app.use("*", async (c, next) => {
    const { method, path } = c.req;
    if (method === "GET" || method === "HEAD" || path.startsWith("/api/")) return next();
    const allow = (await routes()).allowedMethods(new URL(c.req.url));
    if (method === "POST" && allow.endsWith("POST")) return next();
    return c.text("Method not allowed.", 405, { Allow: allow, "Cache-Control": "no-store" });
  });

  app.route("/", createApi({ backend, siteUrl, clientIp, ownOrigin, log }));

  /** React Router's answer, its page's own inline scripts still marked (server/http/security.ts). */
  function rendered(c: Context, request: Request): Promise<Response> {
    const context = new RouterContextProvider();
    context.set(clientAddress, clientIp(c));
    context.set(backendContext, backend);
    return handleRequest(request.method === "HEAD" ? new Request(request, { method: "GET" }) : request, context);
  }

  /** React Router's answer; an HTML page gets its CSP and charset, and HEAD the headers GET would have. */
  async function render(c: Context, request: Request): Promise<Response> {
    const head = request.method === "HEAD";
    const response = await rendered(c, request);
    if (!response.headers.get("Content-Type")?.startsWith("text/html")) return response;
    const { html, hashes } = ownInlineHashes(await response.text());
    const headers = new Headers(response.headers);
    headers.set("Content-Type", "text/html; charset=utf-8");
    if (mode === "production") headers.set("Content-Security-Policy", contentSecurityPolicy(hashes));
    headers.set("Cache-Control", "no-store");
    headers.delete("Content-Length");
    return new Response(head ? null : html, { status: response.status, headers });
  }

  const limiter = createRenderLimiter(renders.concurrency);
  /** Renders are counted per visitor; visitors whose address is unknown count as one. */
  const renderClient = (c: Context) => clientIp(c) ?? "";

  if (clientDir) {
    const lookup = createStaticFiles(clientDir);
    const lists = createRenderCache(renders.cacheBytes, limiter);
    app.on(["GET", "HEAD"], "*", etag(), async (c, next) => {
      const url = new URL(c.req.url);
      const file = lookup(url.pathname);
      if (!file) {
        if (!notFound || (await routes()).renderHandle(url.pathname).perRequest) return next();
        return answerFile(c, url.pathname.endsWith(".data") ? notFound.data : notFound.page, 404);
      }
      // A query is ignored by every page but the filtered lists, which render it once per filter.
      const key = url.search
        ? filteredListKey(file.urlPath, url.search, (await routes()).renderHandle(file.urlPath).query)
        : null;
      if (key === null) return answerFile(c, file);
      // Rendered at the public origin, never the request's Host: a cached page is shared by all visitors.
      const canonical = new Request(new URL(key, siteUrl), { headers: { Accept: "text/html" } });
      const cached = await lists.page(key, file.urlPath, renderClient(c), () =>
        renderList ? renderList(canonical.url) : rendered(c, canonical),
      );
      return cached.kind === "busy" ? busyAnswer(c) : answerFile(c, cached.page);
    });
  }

  // Form posts without JavaScript: same-site only, and never a huge body. Not Hono's `csrf`: it
  // refuses a post with neither Origin nor Sec-Fetch-Site (curl, a script), and checks form types only.
  app.on(["POST", "PUT", "PATCH", "DELETE"], "*", async (c, next) => {
    if (isOneClickUnsubscribe(c)) return next();
    const origin = checkOrigin(c.req.raw.headers, { siteUrl, ownOrigin: ownOrigin(c) });
    if (origin.refused) {
      log(`Refused ${c.req.method} ${c.req.path}: ${origin.reason}`);
      return c.text("Cross-site form posts are not accepted.", 403);
    }
    return next();
  });
  app.use(
    "*",
    bodyLimit({ maxSize: FORM_BODY_LIMIT_BYTES, onError: (c) => c.text("This form post is too large.", 413) }),
  );

  app.all("*", async (c) => {
    const write =
      !["GET", "HEAD"].includes(c.req.method) || (await routes()).renderHandle(new URL(c.req.url).pathname).perRequest;
    if (write) return render(c, isOneClickUnsubscribe(c) ? withoutOrigin(c.req.raw) : c.req.raw);
    // Reads that reach here are rendered only in development (production answers them with files).
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
