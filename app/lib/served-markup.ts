import { useState } from "react";
import { useHydrated } from "./hydrated.ts";

/**
 * The prerendered markup inside `selector` while `key` stays what the page was served with, else null.
 * Hydrating hundreds of prerendered entries is most of a long list's script work, and React leaves
 * what it is given as `dangerouslySetInnerHTML` as it is.
 */
export function useServedMarkup(selector: string, key: string): string | null {
  const hydrated = useHydrated();
  const [served, setServed] = useState(() => {
    const html = hydrated ? undefined : globalThis.document?.querySelector(selector)?.innerHTML;
    return html === undefined ? null : { html, key };
  });
  if (served && served.key !== key) setServed(null);
  return served?.key === key ? served.html : null;
}
