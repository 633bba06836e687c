/**
 * The JSON API: `POST /api/user` signs up for the newsletter, `POST /api/email` sends the owner a
 * message; a thin HTTP layer over the forms' own `signUp` and `sendMessage` (server/forms/submit.ts).
 * Full paths: mount with `app.route("/", api)`.
 *
 * Before a request reaches a service: same-site check (403), JSON content type (415), size of at
 * most 16 KB whether or not a Content-Length is sent (413, Hono's `bodyLimit`, as for the form
 * posts), UTF-8 and JSON syntax (400). Every answer is JSON; an unexpected error is logged and
 * answered 500 with a generic message, never with a stack trace or an internal message. Other
 * methods on the two paths get 405, other paths under /api/ a JSON 404.
 */
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type FormResult, MESSAGES } from "../rules/forms.ts";
import { type FormDeps, sendMessage, signUp } from "../server/forms/submit.ts";
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
  /** The backend whose services answer (server/backend.ts). */
  backend: FormDeps;
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

/**
 * Whether a failed body read is the client closing the connection mid-body: nothing is wrong with
 * the server and nobody is left to answer, so it is neither a 500 nor worth a stack in the log.
 */
export function isClientAbort(request: Request, error: unknown): boolean {
  return request.signal.aborted || (error as NodeJS.ErrnoException | undefined)?.code === "ECONNRESET";
}

type Refusal = { status: 400 | 415; error: string };

/** What is wrong with a request's headers for a JSON body, before any of the body is read. */
function headerRefusal(request: Request): Refusal | null {
  if (!isJsonContentType(request.headers.get("content-type"))) return { status: 415, error: API_ERRORS.notJson };
  const encoding = request.headers.get("content-encoding");
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") {
    return { status: 415, error: API_ERRORS.encoding };
  }
  return null;
}

/** The JSON value of a body already within the limit (`bodyLimit` ran before), or why it is none. */
async function parseJson(request: Request): Promise<{ ok: true; value: unknown } | ({ ok: false } & Refusal)> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await request.arrayBuffer());
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
  const { backend, siteUrl, clientIp, ownOrigin } = deps;
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const api = new Hono();

  type Service = (deps: FormDeps, input: unknown, ip: string | undefined) => Promise<FormResult>;
  const endpoint = (service: Service) => async (c: Context) => {
    const body = await parseJson(c.req.raw);
    if (!body.ok) return answer(c, body.status, { error: body.error });
    return answerResult(c, await service(backend, body.value, clientIp(c)));
  };
  // Same site, then JSON, then the size: a refused request costs no upload.
  const checkHeaders = async (c: Context, next: () => Promise<void>) => {
    const origin = checkOrigin(c.req.raw.headers, { siteUrl, ownOrigin: ownOrigin(c) });
    if (origin.refused) {
      log(`Refused ${c.req.method} ${c.req.path}: ${origin.reason}`);
      return answer(c, 403, { error: API_ERRORS.crossSite });
    }
    const refusal = headerRefusal(c.req.raw);
    if (refusal) return answer(c, refusal.status, { error: refusal.error });
    await next();
  };
  const limit = bodyLimit({
    maxSize: BODY_LIMIT_BYTES,
    onError: (c) => answer(c, 413, { error: API_ERRORS.tooLarge }),
  });

  api.post("/api/user", checkHeaders, limit, endpoint(signUp));
  api.post("/api/email", checkHeaders, limit, endpoint(sendMessage));
  for (const path of ["/api/user", "/api/email"]) {
    api.all(path, (c) => answer(c, 405, { error: API_ERRORS.method }, { Allow: "POST" }));
  }
  api.all("/api/*", (c) => answer(c, 404, { error: API_ERRORS.notFound }));

  api.onError((error, c) => {
    if (isClientAbort(c.req.raw, error)) return answer(c, 400, { error: API_ERRORS.aborted });
    log(`${c.req.method} ${c.req.path} failed`, error);
    return answer(c, 500, { error: API_ERRORS.server });
  });

  return api;
}
