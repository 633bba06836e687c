import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { orUndefined } from "../catalogue/present.ts";
import { MESSAGES } from "../rules/forms.ts";
import { sendMessage } from "../services/contact/send.ts";
import type { FormDeps } from "../services/forms/submission.ts";
import {
  type MailEventSettings,
  postmarkRefusal,
  receivePostmarkEvent,
  receiveSesEvent,
} from "../services/newsletter/mail-events.ts";
import { signUp } from "../services/newsletter/sign-up.ts";
import type { HttpOptions } from "./app.ts";
import { checkOrigin } from "./forwarded.ts";

const BODY_LIMIT_BYTES = 16 * 1024;
/** SNS's largest message, 256 KB, escaped once more inside its envelope. */
const MAIL_EVENT_LIMIT_BYTES = 512 * 1024;

export const API_ERRORS = {
  crossSite: "Cross-site requests are not allowed.",
  notJson: "Please send the request as JSON (Content-Type: application/json).",
  encoding: "Compressed request bodies are not supported.",
  tooLarge: "The request is too large: 16 KB at most.",
  mailEventTooLarge: "The request is too large: 512 KB at most.",
  badUtf8: "The request body is not valid UTF-8.",
  badJson: "The request body is not valid JSON.",
  aborted: "The request body was cut off before its end.",
  method: "Method not allowed: use POST.",
  notFound: "Not found.",
  server: MESSAGES.serverError,
} as const;

type ApiDeps = Pick<HttpOptions, "siteUrl" | "clientIp" | "ownOrigin"> & {
  backend: FormDeps & { config: MailEventSettings };
  log?: (message: string, error?: unknown) => void;
};

function isJsonContentType(value: string | undefined): boolean {
  const [type = "", ...parameters] = (value ?? "").split(";");
  if (type.trim().toLowerCase() !== "application/json") return false;
  return parameters.every((parameter) => {
    const [name = "", setting = ""] = parameter.split("=");
    return name.trim().toLowerCase() !== "charset" || /^"?utf-?8"?$/i.test(setting.trim());
  });
}

/** The client closed the connection mid-body: nobody is left to answer, and nothing is wrong here. */
export function isClientAbort(request: Request, error: unknown): boolean {
  return request.signal.aborted || (error as NodeJS.ErrnoException | undefined)?.code === "ECONNRESET";
}

const answer = (c: Context, status: ContentfulStatusCode, body: object, headers: Record<string, string> = {}) =>
  c.json(body, status, { "Cache-Control": "no-store", ...headers });

/** `POST /api/user` signs up for the newsletter, `POST /api/email` writes to the owner: JSON in and out. */
export function createApi(deps: ApiDeps): Hono {
  const { backend, siteUrl, clientIp, ownOrigin } = deps;
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const api = new Hono();

  const readJson = async (c: Context): Promise<{ input: unknown } | Response> => {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(await c.req.arrayBuffer());
    } catch {
      return answer(c, 400, { error: API_ERRORS.badUtf8 });
    }
    // JSON has no undefined: only a parse that failed gives it.
    const input: unknown = orUndefined(() => JSON.parse(text));
    return input === undefined ? answer(c, 400, { error: API_ERRORS.badJson }) : { input };
  };
  // Signing up and sending a message take the same arguments and answer alike.
  const endpoint = (service: typeof signUp) => async (c: Context) => {
    const body = await readJson(c);
    if (body instanceof Response) return body;
    const result = await service(backend, body.input, clientIp(c));
    if (result.ok) return answer(c, result.status, { ok: true });
    const retry: Record<string, string> =
      result.retryAfter === undefined ? {} : { "Retry-After": String(result.retryAfter) };
    return answer(c, result.status, { error: result.error, ...(result.field && { field: result.field }) }, retry);
  };
  // Same site, then JSON, then the size: a refused request costs no upload.
  const checkHeaders = async (c: Context, next: () => Promise<void>) => {
    const origin = checkOrigin(c.req.raw.headers, { siteUrl, ownOrigin: ownOrigin(c) });
    if (origin.refused) {
      log(`Refused ${c.req.method} ${c.req.path}: ${origin.reason}`);
      return answer(c, 403, { error: API_ERRORS.crossSite });
    }
    if (!isJsonContentType(c.req.header("content-type"))) return answer(c, 415, { error: API_ERRORS.notJson });
    const encoding = c.req.header("content-encoding")?.trim().toLowerCase();
    if (encoding !== undefined && encoding !== "identity") return answer(c, 415, { error: API_ERRORS.encoding });
    await next();
  };
  const limit = bodyLimit({
    maxSize: BODY_LIMIT_BYTES,
    onError: (c) => answer(c, 413, { error: API_ERRORS.tooLarge }),
  });

  for (const [path, service] of [["/api/user", signUp] as const, ["/api/email", sendMessage] as const]) {
    api.post(path, checkHeaders, limit, endpoint(service));
    api.all(path, (c) => answer(c, 405, { error: API_ERRORS.method }, { Allow: "POST" }));
  }
  // A sending service posts these from its own machines, as SNS does with Content-Type text/plain.
  const mailEventLimit = bodyLimit({
    maxSize: MAIL_EVENT_LIMIT_BYTES,
    onError: (c) => answer(c, 413, { error: API_ERRORS.mailEventTooLarge }),
  });
  const refuse = (c: Context, status: 400 | 401, error: string) => {
    log(`Refused ${c.req.method} ${c.req.path}: ${error}`);
    return answer(c, status, { error });
  };
  const mailEvent = (receive: typeof receiveSesEvent) => async (c: Context) => {
    const body = await readJson(c);
    if (body instanceof Response) return body;
    const { status, message } = await receive(backend.database.db, backend.config, body.input, log);
    return status === 200 ? answer(c, 200, { ok: true, outcome: message }) : refuse(c, status, message);
  };
  // Before the body, so that a refused post costs no upload.
  const postmarkAuthorization = async (c: Context, next: () => Promise<void>) => {
    const refused = postmarkRefusal(backend.config, c.req.header("authorization"));
    if (refused) return refuse(c, 401, refused);
    await next();
  };
  api.post("/api/mail-events/ses", mailEventLimit, mailEvent(receiveSesEvent));
  api.post("/api/mail-events/postmark", postmarkAuthorization, mailEventLimit, mailEvent(receivePostmarkEvent));
  api.all("/api/mail-events/:provider{ses|postmark}", (c) =>
    answer(c, 405, { error: API_ERRORS.method }, { Allow: "POST" }),
  );
  api.all("/api/*", (c) => answer(c, 404, { error: API_ERRORS.notFound }));

  api.onError((error, c) => {
    if (isClientAbort(c.req.raw, error)) return answer(c, 400, { error: API_ERRORS.aborted });
    log(`${c.req.method} ${c.req.path} failed`, error);
    return answer(c, 500, { error: API_ERRORS.server });
  });

  return api;
}
