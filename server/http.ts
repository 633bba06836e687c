/**
 * The HTTP layer: security headers on everything, the API, the built files, and React Router for
 * whatever the build has no file for (the 404 screen, form posts, filtered lists).
 */
import { Hono } from "hono";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { baseSecurityHeaders, contentSecurityPolicy, inlineScriptHashes } from "./security";
import { createStaticFiles, pickEncoding } from "./static";

export type HttpOptions = {
  build: ServerBuild;
  clientDir: string;
  siteUrl: string;
  /** Mounted first: the JSON endpoints under /api. */
  api?: Hono;
  /** Fills React Router's context for loaders and actions (the form services). */
  routerContext?: (request: Request) => RouterContextProvider;
};

export function createHttpApp({ build, clientDir, siteUrl, api, routerContext }: HttpOptions): Hono {
  const app = new Hono();
  const securityHeaders = baseSecurityHeaders(siteUrl);
  const lookup = createStaticFiles(clientDir);
  const handleRequest = createRequestHandler(build, "production");

  app.use(async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(securityHeaders)) c.res.headers.set(name, value);
  });

  if (api) app.route("/", api);

  app.on(["GET", "HEAD"], "*", async (c, next) => {
    const url = new URL(c.req.url);
    // A query string can change what a page shows (/notes?tag=Fiction), so React Router renders it.
    const file = url.search && !url.pathname.startsWith("/assets/") ? null : lookup(url.pathname);
    if (!file) return next();
    const headers: Record<string, string> = {
      "Content-Type": file.contentType,
      "Cache-Control": file.immutable ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate",
      ETag: file.etag,
      Vary: "Accept-Encoding",
    };
    if (file.scriptHashes) headers["Content-Security-Policy"] = contentSecurityPolicy(file.scriptHashes);
    if (c.req.header("If-None-Match") === file.etag) return c.body(null, 304, headers);
    const encoding = pickEncoding(c.req.header("Accept-Encoding"), file);
    if (encoding !== "identity") headers["Content-Encoding"] = encoding;
    const body = file.bodies[encoding] ?? file.bodies.identity;
    headers["Content-Length"] = String(body.length);
    if (c.req.method === "HEAD") return c.body(null, 200, headers);
    return c.body(new Uint8Array(body), 200, headers);
  });

  app.all("*", async (c) => {
    const response = await handleRequest(c.req.raw, routerContext?.(c.req.raw) ?? new RouterContextProvider());
    if (!response.headers.get("Content-Type")?.startsWith("text/html")) return response;
    const html = await response.text();
    const headers = new Headers(response.headers);
    headers.set("Content-Security-Policy", contentSecurityPolicy(inlineScriptHashes(html)));
    headers.set("Cache-Control", "no-store");
    headers.delete("Content-Length");
    return new Response(c.req.method === "HEAD" ? null : html, { status: response.status, headers });
  });

  app.onError((error, c) => {
    console.error(error);
    return c.text("Something went wrong. Please try again.", 500);
  });

  return app;
}
