/**
 * Whether a page of the site answers at its public address, asked with one request (redirects
 * followed, as a mail reader's browser would). The newsletter's `send` and `test` ask it of an
 * issue's page before mailing, so no mail goes out whose "Read it on the site" link is a 404
 * because the issue was published but not yet built and deployed.
 */

export type PageCheck = { live: true } | { live: false; reason: string };

/** A page that has not answered by then counts as not live. */
export const LIVE_PAGE_TIMEOUT_MS = 10_000;

/** The reason a request failed, as the owner reads it: "ECONNREFUSED", "no answer within 10 s". */
function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

export async function checkPageLive(url: string, { timeoutMs = LIVE_PAGE_TIMEOUT_MS } = {}): Promise<PageCheck> {
  try {
    const response = await fetch(url, {
      headers: { accept: "text/html" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The status is the answer; the page itself is not needed.
    await response.body?.cancel();
    if (response.ok) return { live: true };
    return {
      live: false,
      reason: `${url} answers ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
    };
  } catch (error) {
    return { live: false, reason: `${url} could not be reached (${failureReason(error, timeoutMs)})` };
  }
}
