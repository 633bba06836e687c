import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { WEBMENTION_PATH } from "../outputs/linked-files.ts";
import type { Webmentions } from "../services/webmention/webmentions.ts";

/** Two addresses of at most 2,000 characters each, percent-encoded. */
const WEBMENTION_LIMIT_BYTES = 16 * 1024;

export const WEBMENTION_ERRORS = {
  notForm: "Send source and target form-encoded (Content-Type: application/x-www-form-urlencoded).",
  tooLarge: "The request is too large: 16 KB at most.",
  badUtf8: "The request body is not valid UTF-8.",
  repeated: "Send one source and one target.",
  method: "Method not allowed: send a webmention with POST.",
} as const;

const answer = (c: Context, status: ContentfulStatusCode, text: string, headers: Record<string, string> = {}) =>
  c.text(text, status, { "Cache-Control": "no-store", ...headers });

const isFormType = (value: string | undefined) =>
  (value ?? "").split(";")[0]?.trim().toLowerCase() === "application/x-www-form-urlencoded";

/**
 * `POST /webmention`, from other sites' servers by nature: mounted before the host's origin check.
 * The answer is 202 once the webmention is stored; its source is fetched later.
 */
export function createWebmentionDoor(webmentions: Pick<Webmentions, "receive">): Hono {
  const door = new Hono();
  door.post(
    WEBMENTION_PATH,
    async (c, next) => {
      if (!isFormType(c.req.header("content-type"))) return answer(c, 415, WEBMENTION_ERRORS.notForm);
      await next();
    },
    bodyLimit({ maxSize: WEBMENTION_LIMIT_BYTES, onError: (c) => answer(c, 413, WEBMENTION_ERRORS.tooLarge) }),
    async (c) => {
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(await c.req.arrayBuffer());
      } catch {
        return answer(c, 400, WEBMENTION_ERRORS.badUtf8);
      }
      const fields = new URLSearchParams(text);
      if (fields.getAll("source").length > 1 || fields.getAll("target").length > 1) {
        return answer(c, 400, WEBMENTION_ERRORS.repeated);
      }
      const received = await webmentions.receive({
        source: fields.get("source") ?? "",
        target: fields.get("target") ?? "",
      });
      if (received.ok) return answer(c, 202, "Accepted: the source will be checked for a link to the target.");
      const retry: Record<string, string> =
        received.retryAfter === undefined ? {} : { "Retry-After": String(received.retryAfter) };
      return answer(c, received.status, received.error, retry);
    },
  );
  door.all(WEBMENTION_PATH, (c) => answer(c, 405, WEBMENTION_ERRORS.method, { Allow: "POST" }));
  return door;
}
