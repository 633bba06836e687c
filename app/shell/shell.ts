// The storage keys go in as data attributes so they are named once, for shell.js and for React.
// biome-ignore lint/correctness/useImportExtensions: the extension is there, before Vite's ?raw query.
import script from "./shell.js?raw";

import { THEME_STORAGE_KEY, VISITOR_STORAGE_KEY } from "./storage-keys.ts";

export const shellScriptProps = {
  dangerouslySetInnerHTML: { __html: script },
  "data-theme-key": THEME_STORAGE_KEY,
  "data-visitor-key": VISITOR_STORAGE_KEY,
} as const;

// Pages without React move on by plain links; Chromium's prerender makes that as fast as a client-side move.
export const SPECULATION_RULES = JSON.stringify({
  prefetch: [{ where: { href_matches: "/*" }, eagerness: "moderate" }],
  prerender: [
    {
      where: { and: [{ href_matches: "/*" }, { not: { href_matches: "/(api|feeds)/*" } }] },
      eagerness: "conservative",
    },
  ],
});
