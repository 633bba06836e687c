/**
 * The JSON API of DESIGN §6: `POST /api/user` (API1) and `POST /api/email` (API2), a thin HTTP
 * layer over server/forms/submit.ts. Full paths: mount with `app.route("/", api)`.
 *
 * Before a request reaches a service: same-site check (403), JSON content type (415), size of at
 * most 16 KB whether or not a Content-Length is sent (413), UTF-8 and JSON syntax (400). Every
 * answer is JSON; an unexpected error is logged and answered 500 with a generic message, never
 * with a stack trace or an internal message. Other methods on the two paths get 405, other paths
 * under /api/ a JSON 404.
 */
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FormResult, FormServices } from "../../rules/form-services.ts";
import { MESSAGES } from "../../rules/forms.ts";
import { checkOrigin } from "./forwarded.ts";

export const BODY_LIMIT_BYTES = 16 * 1024;

export const API_ERRORS = {
  crossSite: "Cross-site requests are not allowed.",
  notJson: "Please send the request as JSON (Content-Type: application/json).",
  encoding: "Compressed request bodies are not supported.",
  tooLarge: "The request is too large: 16 KB at most.",
  badUtf8: "The request body is not valid UTF-8.",
  badJson: "The request body is not valid JSON.",
  aborted: "The request body was cut off before its end.",
  method: "Method not allowed: use POST.",
  notFound: "Not found.",
  server: MESSAGES.serverError,
} as const;

export type ApiDeps = {
  services: FormServices;
  /** The public origin (config.siteUrl): accepted as `Origin`, besides the request's own origin. */
  siteUrl: string;
  /** The visitor's address for the rate limit; the caller decides which proxies to trust. */
  clientIp: (c: Context) => string | undefined;
  /** The origin the request was addressed to (server/http/forwarded.ts), also accepted as `Origin`. */
  ownOrigin: (c: Context) => string | undefined;
  log?: (message: string, error?: unknown) => void;
};

/** `application/json`, optionally with a UTF-8 charset. */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const [type = "", ...parameters] = value.split(";");
  if (type.trim().toLowerCase() !== "application/json") return false;
  return parameters.every((parameter) => {
    const [name = "", setting = ""] = parameter.split("=");
    if (name.trim().toLowerCase() !== "charset") return true;
    return ["utf-8", "utf8"].includes(setting.trim().replace(/^"|"$/g, "").toLowerCase());
  });
}

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: "too-large" | "aborted" };

/**
 * Whether a failed body read is the client closing the connection mid-body: nothing is wrong with
 * the server and nobody is left to answer, so it is neither a 500 nor worth a stack in the log.
 */
export function isClientAbort(request: Request, error: unknown): boolean {
  return request.signal.aborted || (error as NodeJS.ErrnoException | undefined)?.code === "ECONNRESET";
}

/**
 * Reads a request body of at most `limit` bytes. A declared Content-Length over the limit is
 * refused before reading; a body without one (chunked) is read until it passes the limit. The rest
 * is left unread (the Node adapter drains it after the answer, so the client still gets the 413).
 */
export async function readLimitedBody(request: Request, limit = BODY_LIMIT_BYTES): Promise<BodyRead> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return { ok: false, reason: "too-large" };
  if (request.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) return { ok: false, reason: "too-large" };
      chunks.push(value);
    }
  } catch (error) {
    if (isClientAbort(request, error)) return { ok: false, reason: "aborted" };
    throw error;
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; error: string };

async function readJson(request: Request): Promise<JsonBody> {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    return { ok: false, status: 415, error: API_ERRORS.notJson };
  }
  const encoding = request.headers.get("content-encoding");
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") {
    return { ok: false, status: 415, error: API_ERRORS.encoding };
  }
  const body = await readLimitedBody(request);
  if (!body.ok && body.reason === "aborted") return { ok: false, status: 400, error: API_ERRORS.aborted };
  if (!body.ok) return { ok: false, status: 413, error: API_ERRORS.tooLarge };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body.bytes);
  } catch {
    return { ok: false, status: 400, error: API_ERRORS.badUtf8 };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, error: API_ERRORS.badJson };
  }
}

const NO_STORE = { "Cache-Control": "no-store" };

function answer(c: Context, status: ContentfulStatusCode, body: object, headers: Record<string, string> = {}) {
  return c.json(body, status, { ...NO_STORE, ...headers });
}

function answerResult(c: Context, result: FormResult) {
  if (result.ok) return answer(c, result.status, { ok: true });
  const body: { error: string; field?: string } = { error: result.error };
  if (result.field) body.field = result.field;
  const headers: Record<string, string> = {};
  if (result.retryAfter !== undefined) headers["Retry-After"] = String(result.retryAfter);
  return answer(c, result.status, body, headers);
}

export function createApi(deps: ApiDeps): Hono {
  const { services, siteUrl, clientIp, ownOrigin } = deps;
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const api = new Hono();

  const endpoint = (service: (input: unknown, ip: string | undefined) => Promise<FormResult>) => async (c: Context) => {
    const origin = checkOrigin(c.req.raw.headers, { siteUrl, ownOrigin: ownOrigin(c) });
    if (origin.refused) {
      log(`Refused ${c.req.method} ${c.req.path}: ${origin.reason}`);
      return answer(c, 403, { error: API_ERRORS.crossSite });
    }
    const body = await readJson(c.req.raw);
    if (!body.ok) return answer(c, body.status, { error: body.error });
    return answerResult(c, await service(body.value, clientIp(c)));
  };

  api.post("/api/user", endpoint(services.subscribe));
  api.post("/api/email", endpoint(services.sendMessage));
  for (const path of ["/api/user", "/api/email"]) {
    api.all(path, (c) => answer(c, 405, { error: API_ERRORS.method }, { Allow: "POST" }));
  }
  api.all("/api/*", (c) => answer(c, 404, { error: API_ERRORS.notFound }));

  api.onError((error, c) => {
    log(`${c.req.method} ${c.req.path} failed`, error);
    return answer(c, 500, { error: API_ERRORS.server });
  });

  return api;
}
