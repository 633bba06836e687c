/**
 * A random value the server render sets as the nonce of each inline script and style the app
 * writes itself: the host hashes only those into the page's Content-Security-Policy, then removes
 * the value (server/http/security.ts). A script that came in with the content never carries it.
 * One per thread, kept on globalThis so that every copy of this module in a thread (the server
 * build, the host) reads the same; a render worker takes its process's (server/http/render-pool.ts).
 */
const KEY = Symbol.for("creator-site.inline-marker");
type Holder = { [KEY]?: string };

export function inlineMarker(): string {
  const holder = globalThis as Holder;
  holder[KEY] ??= crypto.randomUUID();
  return holder[KEY];
}

export function adoptInlineMarker(marker: string): void {
  (globalThis as Holder)[KEY] = marker;
}
