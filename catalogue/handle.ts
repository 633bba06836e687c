/** What Mastodon and most fediverse servers accept as a user name. */
export const HANDLE_PATTERN = /^[a-z0-9_]{1,30}$/;

/** The owner's first name in lower case, its accents dropped: "Zoë Ngata" is @zoe. */
export function defaultHandle(ownerName: string): string {
  const first = ownerName.trim().split(/\s+/)[0] ?? "";
  const plain = first
    .normalize("NFD")
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "")
    .slice(0, 30);
  return plain || "site";
}

export const siteHandle = (site: { handle?: string | undefined; name: string }) =>
  site.handle ?? defaultHandle(site.name);

/** `@handle@host`, the host with its port, as a reader types it to follow the site. */
export const fediverseAddress = (handle: string, siteUrl: string) => `@${handle}@${new URL(siteUrl).host}`;

/** The page of a reader's own server that follows the site: the follow form's answer. */
export const REMOTE_FOLLOW_PATH = "/follow";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The follow page on the reader's server — Mastodon's `authorize_interaction`, which Pleroma, Akkoma and
 * GoToSocial answer too — from what they typed: a server (`mastodon.social`, `https://mastodon.social/`)
 * or their own handle (`@me@mastodon.social`). Plain http only to a loopback server, and only when allowed.
 */
export function remoteFollowUrl(typed: string, address: string, { allowLoopback = false } = {}): URL | null {
  const server = typed
    .trim()
    .replace(/^@/, "")
    .replace(/^[^@\s/]+@/, "")
    .replace(/^https?:\/\//i, "")
    .replace(/\/+$/, "");
  if (!server || /[\s/?#@\\]/.test(server)) return null;
  let url: URL;
  try {
    url = new URL(`https://${server}`);
  } catch {
    return null;
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (loopback ? !allowLoopback : !/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(url.hostname)) return null;
  const follow = new URL("/authorize_interaction", `${loopback ? "http" : "https"}://${url.host}`);
  follow.searchParams.set("uri", address.replace(/^@/, ""));
  return follow;
}
