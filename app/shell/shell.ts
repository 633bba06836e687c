/**
 * The page shell's script (shell.js): theme, signed-up flag, the scroll button and the search
 * shortcuts, on every page.
 * It is inlined in <head> by root.tsx with the storage keys as data attributes, so the keys are
 * named once (storage-keys.ts), for the script and for the React code that shares the visitor.
 */
// biome-ignore lint/correctness/useImportExtensions: the extension is there, before Vite's ?raw query.
import script from "./shell.js?raw";

import { THEME_STORAGE_KEY, VISITOR_STORAGE_KEY } from "./storage-keys.ts";

/** The <script> element's props: its text and the keys it reads from its dataset. */
export const shellScriptProps = {
  dangerouslySetInnerHTML: { __html: script },
  "data-theme-key": THEME_STORAGE_KEY,
  "data-visitor-key": VISITOR_STORAGE_KEY,
} as const;

/**
 * Pages without React move on by plain links; Chromium fetches a same-site page when the pointer
 * rests on its link and prerenders it on press, so the next page shows as fast as a client-side
 * transition. Other browsers ignore the rules and load the small page as usual.
 */
export const SPECULATION_RULES = JSON.stringify({
  prefetch: [{ where: { href_matches: "/*" }, eagerness: "moderate" }],
  prerender: [
    {
      where: { and: [{ href_matches: "/*" }, { not: { href_matches: "/(api|feeds)/*" } }] },
      eagerness: "conservative",
    },
  ],
});
