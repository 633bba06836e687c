// No dependencies: the pages' code in the browser uses `absoluteUrl`.
export const DEFAULT_SITE_URL = "http://localhost:3000";

export const SITE_URL_PROBLEM = "must be an http(s) origin such as https://example.com";

export type SiteUrlResult = { ok: true; origin: string } | { ok: false; problem: string };

export function parseSiteUrl(value: string | undefined): SiteUrlResult {
  if (value === undefined || value === "") return { ok: true, origin: DEFAULT_SITE_URL };
  const url = URL.parse(value.trim());
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    return { ok: false, problem: SITE_URL_PROBLEM };
  }
  return { ok: true, origin: url.origin };
}

export function siteUrlFromEnvironment(environment: Record<string, string | undefined>): string {
  const result = parseSiteUrl(environment.SITE_URL);
  if (!result.ok) throw new Error(`SITE_URL=${JSON.stringify(environment.SITE_URL)} ${result.problem}`);
  return result.origin;
}

export function absoluteUrl(siteUrl: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${siteUrl}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}
