// Asked before mailing an issue, so that no "Read it on the site" link is a 404 because the issue is not yet deployed.

function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

export async function checkPageLive(
  url: string,
  { timeoutMs = 10_000 } = {},
): Promise<{ live: true } | { live: false; reason: string }> {
  try {
    const response = await fetch(url, {
      headers: { accept: "text/html" },
      signal: AbortSignal.timeout(timeoutMs),
    });
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
