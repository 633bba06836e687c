// Marks the app's own inline scripts for the CSP hashes (host/security.ts); content never carries it.
// On globalThis so every copy of this module in a thread reads the same one.
const KEY = Symbol.for("creator-site.inline-marker");
type Holder = { [KEY]?: string };

export function inlineMarker(): string {
  const holder = globalThis as Holder;
  holder[KEY] ??= crypto.randomUUID();
  return holder[KEY];
}
