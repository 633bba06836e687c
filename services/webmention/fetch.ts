// Every request a webmention makes goes to an address a stranger chose: bounded in time, size and
// redirects, and never to this machine's own network unless loopback is allowed for a local trial.
import { validatePublicUrl } from "@fedify/vocab-runtime";

export type OutsideRequest = {
  allowLoopback: boolean;
  method?: "GET" | "POST";
  body?: URLSearchParams;
  /** A POST is not followed: its answer is the endpoint's. */
  maxRedirects?: number;
  timeoutMs?: number;
  maxBytes?: number;
};

export type OutsidePage = { status: number; url: string; headers: Headers; text: string };

/** `transient`: worth trying again later (a timeout, a refused connection), not a property of the address. */
export class Unreachable extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export const PAGE_LIMIT_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_REDIRECTS = 5;

async function checkAddress(url: URL, allowLoopback: boolean) {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Unreachable(`${url.protocol} addresses are not fetched`, false);
  }
  if (allowLoopback) return;
  try {
    await validatePublicUrl(url.href);
  } catch (error) {
    const message = (error as Error).message;
    // A name that does not resolve today may tomorrow; a private address stays private.
    if (message.startsWith("DNS lookup failed")) throw new Unreachable(`${url.hostname} could not be resolved`, true);
    throw new Unreachable(`${url.host} is not a public address (${message})`, false);
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new Unreachable(`the page is larger than ${maxBytes} bytes`, false);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Unreachable(`the page is larger than ${maxBytes} bytes`, false);
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function failureOf(error: unknown, timeoutMs: number): Unreachable {
  if (error instanceof Unreachable) return error;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new Unreachable(`no answer within ${timeoutMs / 1000} s`, true);
  }
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return new Unreachable(cause?.code ?? (error instanceof Error ? error.message : String(error)), true);
}

/** Follows redirects itself, so that each address on the way is checked before it is asked. */
export async function fetchOutside(address: string, request: OutsideRequest): Promise<OutsidePage> {
  const { allowLoopback, method = "GET", body } = request;
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = request.maxBytes ?? PAGE_LIMIT_BYTES;
  const maxRedirects = request.maxRedirects ?? (method === "GET" ? DEFAULT_REDIRECTS : 0);
  const signal = AbortSignal.timeout(timeoutMs);
  let url = new URL(address);
  try {
    for (let redirects = 0; ; redirects++) {
      await checkAddress(url, allowLoopback);
      const response = await fetch(url, {
        method,
        body,
        redirect: "manual",
        signal,
        headers: { accept: "text/html, application/xhtml+xml;q=0.9, */*;q=0.1" },
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location && maxRedirects > 0) {
        await response.body?.cancel();
        if (redirects >= maxRedirects) throw new Unreachable(`more than ${maxRedirects} redirects`, false);
        url = new URL(location, url);
        continue;
      }
      return {
        status: response.status,
        url: url.href,
        headers: response.headers,
        text: await readCapped(response, maxBytes),
      };
    }
  } catch (error) {
    throw failureOf(error, timeoutMs);
  }
}

/** 408, 429 and 5xx say "later", any other failure "no". */
export const isTransientStatus = (status: number) => status === 408 || status === 429 || status >= 500;

export const isHtml = (page: OutsidePage) =>
  /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(page.headers.get("content-type") ?? "");
